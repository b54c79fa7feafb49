// Team chat in the real desktop window (Xvfb, WebDriver) with the real
// llama.cpp peer: the team panel makes the conversation a team of two
// members on the conversation's model and a Claude Code stand-in
// (tests/fixtures/agents/claude, speaking claude's stream-json); a
// message routed `[NEXT:member1] [NEXT:member3] [NEXT:member2]` runs the
// three in turn, each name on its messages, and the last member's request
// (seen at a logging proxy) carries the stand-in's answer without markers.
// Screenshot: e2e/out/team-desktop-chat.png.
import { join, resolve } from "node:path";
import { checker, startLoggingProxy, startPeer, tempDir } from "./lib.mjs";
import { desktopSuite, newConversation, sleep, useLocalServer } from "./webdriver.mjs";

const { check, finish } = checker();
const data = tempDir("desktop-team");
const peer = startPeer();
const proxy = await startLoggingProxy(0, new URL(peer.url).origin);
const standin = resolve(join(import.meta.dirname, "../../tests/fixtures/agents/claude"));
const ENTER = "\uE007";
const box = "//textarea[@aria-label='Message']";
await desktopSuite("team-desktop", { check, finish }, { data, cleanup: () => { proxy.close(); peer.stop(); } }, async ({ open }) => {
  let s = await open();
  await useLocalServer(s, proxy.url);
  await newConversation(s);

  await s.until("the header's team button", "return [...document.querySelectorAll('button')].some((b) => b.textContent === 'Team…')", 10000);
  await s.click("//button[.='Team…']");
  await s.until("the team panel", "return !!document.querySelector('[aria-label=\"Name of member 2\"]')", 10000);
  await s.click("//button[.='Add a member']");
  await s.click("//select[@aria-label='Agent of member3']/option[@value='claude-code']");
  // WebKit's driver drops "\n": Enter makes the new line in a textarea.
  await s.type("//textarea[@aria-label='Instructions of member3']", `${ENTER}REPLY: Reviewed, ship it.`);
  await s.type("//input[@aria-label='Program of member3']", standin);
  await s.type("//textarea[@aria-label='Team task']", "Plan the release");
  await s.click("//button[.='Save team']");
  await s.until("the team saved", "return !document.querySelector('dialog[open]') && [...document.querySelectorAll('button')].some((b) => b.textContent === 'Team (3)')", 20000);
  check(true, "the team panel set a team of three, the stand-in CLI found and signed in");

  await s.type(box, `[NEXT:member1] [NEXT:member3] [NEXT:member2] Hello team${ENTER}`);
  await s.until("three members' answers", "return document.querySelectorAll('[data-testid=speaker]').length >= 3", 240000);
  await s.state("Idle", 120000);
  // The list renders only the rows near the view, and the model's answers
  // are as long as it likes (a short one between two long ones was in
  // view at neither end): speakers are read all the way down, half a view
  // at a time, by message id.
  const byId = new Map();
  const [height, view] = await s.js("const m = document.querySelector('.messages'); return [m.scrollHeight, m.clientHeight]");
  for (let top = 0, step = Math.max(100, Math.floor(view / 2)); top <= height + step; top += step) {
    await s.js(`document.querySelector('.messages').scrollTop = ${top}; return true`);
    await sleep(150);
    const seen = await s.js("return [...document.querySelectorAll('.messages .row')].filter((r) => r.querySelector('[data-testid=speaker]')).map((r) => [Number(r.dataset.key.slice(1)), r.querySelector('[data-testid=speaker]').textContent, r.textContent])");
    for (const [id, who, text] of seen) byId.set(id, [who, text]);
  }
  const rows = [...byId.entries()].sort((a, b) => a[0] - b[0]).map(([, row]) => row);
  const speakers = rows.map(([who]) => who);
  check(speakers.slice(0, 3).join(",") === "member1,member3,member2", `each member answered in turn, under its name (${speakers})`);
  const third = rows.find(([who]) => who === "member3")?.[1] ?? "";
  check(third.includes("Reviewed, ship it."), `the CLI member's answer is in the window (${JSON.stringify(third.slice(0, 60))})`);
  const asks = proxy.bodies
    .filter((b) => b.path.endsWith("/chat/completions"))
    .map((b) => JSON.parse(b.body))
    .filter((b) => /^Message:\n/m.test(b.messages.at(-1)?.content ?? ""));
  const last = asks.at(-1)?.messages ?? [];
  const system = last.find((m) => m.role === "system")?.content ?? "";
  const prompt = last.at(-1)?.content ?? "";
  check(system.startsWith("You are member2.") && system.includes("Team task:\nPlan the release"), `member2's instruction and the task are its system prompt (${JSON.stringify(system.slice(0, 60))})`);
  check(prompt.endsWith('Message:\nmember3: <untrusted source="team member member3">\nReviewed, ship it.\n</untrusted>') && !prompt.includes("[NEXT:"), `member2 was given member3's answer without markers (${JSON.stringify(prompt.slice(-80))})`);
  await sleep(300); // the window paints a moment after the page changes
  await s.shot("chat");
});
