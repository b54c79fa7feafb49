// End to end in a real browser: braid-server serves the built UI, headless
// Chromium (playwright-core, Debian's /usr/bin/chromium) creates a
// conversation, sends a message, watches it stream, reloads, and finds it
// stored. Writes a screenshot to e2e/out/chat.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { accessibilityProblems, browserSuite, checker, clickOnHover, scaled, tempDir } from "./lib.mjs";

const { check, finish } = checker();
await browserSuite("chat", { check, finish }, { db: join(tempDir("e2e"), "e2e.db"), args: ["--echo"], page: { viewport: { width: 1100, height: 700 }, permissions: ["clipboard-read", "clipboard-write"] } }, async ({ page, url, consoleErrors }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).waitFor();
  check(!page.url().includes("token="), "the token leaves the address bar");
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message");
  // The first character in an empty box tells the backend that an answer
  // is coming (warm_up: the built-in model loads while the rest is typed).
  const warmUps = [];
  const isWarmUp = (r) => r.url().endsWith("/api/command") && r.method() === "POST" && JSON.parse(r.postData() ?? "{}").type === "warm_up";
  page.on("request", (r) => isWarmUp(r) && warmUps.push(JSON.parse(r.postData()).context_id));
  const warmed = page.waitForRequest(isWarmUp);
  await box.fill("hello from the browser");
  await warmed;
  await box.press("Enter");
  await page.getByText("You said: hello from the browser").waitFor({ timeout: 15000 });
  check(warmUps.length === 1 && typeof warmUps[0] === "string" && warmUps[0].length > 0, `writing in the empty box asked once for the conversation's model to get ready (${JSON.stringify(warmUps)})`);
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 15000 });
  check(true, "a sent message streams back and the state line returns to Idle");
  const pace = await page.locator(".message.assistant").last().getByTestId("speed").innerText();
  check(/^\d+\.\d s to the first token · (about )?[\d.]+ tokens\/s$/.test(pace), `the answer says how fast it came (${pace})`);
  // After the first exchange the conversation is named (the echo model
  // names it by the question's first words).
  await page.locator(".conversations .open", { hasText: "hello from the browser" }).waitFor({ timeout: 10000 });
  check(true, "after the first exchange the conversation gets a title in the list");



  // Shift+Enter makes a new line instead of sending.
  await box.fill("line one");
  await box.press("Shift+Enter");
  await box.type("line two");
  check((await box.inputValue()) === "line one\nline two", "Shift+Enter inserts a new line");
  await page.waitForTimeout(200);
  check(warmUps.length === 2 && warmUps[1] === warmUps[0], `the next message's first character asked again, the characters after it did not (${warmUps.length} asks)`);
  await box.fill("");

  // Discard drops a running answer at once and nothing partial is kept.
  await box.fill(Array.from({ length: 60 }, (_, i) => `word${i}`).join(" "));
  await box.press("Enter");
  await page.getByTestId("state").filter({ hasText: "Streaming" }).waitFor({ timeout: 15000 });
  check(await page.getByRole("button", { name: "Stop", exact: true }).isVisible(), "while busy a Stop button sits beside Discard");
  await page.getByRole("button", { name: "Discard" }).click();
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 5000 });
  // The notice comes after the cancel is stored: the list is final then.
  await page.locator(".notice", { hasText: "Cancelled" }).waitFor({ timeout: 5000 });
  const answers = await page.locator(".message.assistant").count();
  check(answers === 1, `Discard stops mid-stream and keeps no partial answer (${answers} answers shown)`);

  // Esc stops: the partial answer is kept, stored and marked "Stopped",
  // with Continue on it; Continue lets the model go on.
  await box.fill(Array.from({ length: 80 }, (_, i) => `kept${i}`).join(" "));
  await box.press("Enter");
  await page.getByTestId("state").filter({ hasText: "Streaming" }).waitFor({ timeout: 15000 });
  await page.locator(".message.assistant").last().filter({ hasText: "kept3" }).waitFor({ timeout: 15000 });
  await box.press("Escape");
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 5000 });
  const partial = await page.locator(".message.assistant").last().innerText();
  check(partial.includes("kept0") && !partial.includes("kept79"), `Esc stops and keeps the partial answer (${JSON.stringify(partial.slice(0, 80))})`);
  const marker = page.getByTestId("stopped-marker");
  check((await marker.innerText()).startsWith("Stopped") && (await marker.getByRole("button", { name: "Continue" }).isVisible()), "the kept answer is marked Stopped, with Continue on it");
  const before = await page.locator(".message.assistant").count();
  await marker.getByRole("button", { name: "Continue" }).click();
  await page.getByTestId("state").filter({ hasText: "Streaming" }).waitFor({ timeout: 15000 });
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 30000 });
  const after = await page.locator(".message.assistant").count();
  // The answer's own text, without the buttons a hover shows beside it.
  const extended = (await page.locator(".message.assistant").last().locator(".markdown").innerText()).trim();
  const stoppedText = partial.slice(partial.indexOf("You said:")).split("\n")[0].trim();
  check(
    after === before && extended.startsWith(stoppedText) && extended.length > stoppedText.length && (await page.getByTestId("stopped-marker").count()) === 0,
    `Continue lets the model go on in the same answer, finished now (${after - before} more rows, ${stoppedText.length} → ${extended.length} characters)`,
  );

  // A message sent while busy is queued visibly and can be taken back.
  await box.fill(Array.from({ length: 60 }, (_, i) => `again${i}`).join(" "));
  await box.press("Enter");
  await page.getByTestId("state").filter({ hasText: "Streaming" }).waitFor({ timeout: 15000 });
  await box.fill("queued one");
  await box.press("Enter");
  await page.getByText("Queued: queued one").waitFor({ timeout: 5000 });
  await page.getByRole("button", { name: "Remove" }).click();
  await page.getByText("Queued: queued one").waitFor({ state: "detached", timeout: 5000 });
  check(true, "a message sent while busy is queued visibly and can be removed");
  // The queue under the user's hand: edited, moved, one sent now.
  for (const q of ["queued two", "queued three"]) {
    await box.fill(q);
    await box.press("Enter");
    await page.getByText(`Queued: ${q}`).waitFor({ timeout: 5000 });
  }
  await page.getByRole("button", { name: "Edit queued 1" }).click();
  await page.getByLabel("Queued text").fill("queued two, edited");
  await page.getByLabel("Queued text").press("Enter");
  await page.getByText("Queued: queued two, edited").waitFor({ timeout: 5000 });
  await page.getByRole("button", { name: "Move queued 2 up" }).click();
  const queueList = page.getByRole("list", { name: "Queue" });
  await page.waitForFunction(() => document.querySelector("ol.queue li .queued-text")?.textContent === "Queued: queued three", null, { timeout: 5000 });
  const order = await queueList.locator(".queued-text").allInnerTexts();
  check(order.join(" | ") === "Queued: queued three | Queued: queued two, edited", `a queued message is edited and moved up (${order.join(" | ")})`);
  await queueList.locator("li").filter({ hasText: "queued two, edited" }).getByRole("button", { name: "Send now" }).click();
  await page.getByText("You said: queued three").waitFor({ timeout: 30000 });
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 30000 });
  const asked = (await page.locator(".message.user").allInnerTexts()).map((t) => t.replace(/^User\s*/i, "").trim()).filter((t) => t.startsWith("queued"));
  const stoppedAnswers = await page.getByTestId("stopped-marker").count();
  check(stoppedAnswers >= 1 && asked.join(" | ") === "queued two, edited | queued three", `Send now stops the answer being written (kept, marked Stopped) and sends that message first, then the rest (${asked.join(" | ")}; ${stoppedAnswers} stopped)`);

  // Answers render Markdown: a fenced block becomes code with a Copy button.
  await box.fill("code:\n```js\nlet x = 1;\n```");
  await box.press("Enter");
  await page.locator(".markdown pre", { hasText: "let x = 1;" }).waitFor({ timeout: 15000 });
  check(await page.getByRole("button", { name: "Copy code" }).first().isVisible(), "a code block in an answer renders with a Copy button");
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 15000 });

  mkdirSync("e2e/out", { recursive: true });
  await page.screenshot({ path: "e2e/out/chat.png" });

  await page.reload();
  await page.locator(".conversations .open").first().click();
  // (The list draws the latest rows: the last answer is in view.)
  await page.locator(".markdown pre", { hasText: "let x = 1;" }).waitFor({ timeout: 10000 });
  check(true, "after a reload the conversation is listed and its messages load");
  const listed = await page.locator(".conversations li").first().innerText();
  check(listed.includes("13 messages"), `the list shows the message count (${listed.replace(/\s+/g, " ")})`);

  // The list follows a streaming answer, stays where a reader who scrolled
  // up is, and "Jump to latest" brings it back to following.
  const list = page.locator(".messages");
  const below = () => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  const jump = page.getByRole("button", { name: /Jump to latest/ });
  await box.fill(Array.from({ length: 400 }, (_, i) => `long${i}`).join(" "));
  await box.press("Enter");
  await page.getByTestId("state").filter({ hasText: "Streaming" }).waitFor({ timeout: 15000 });
  // Waits are for the stream itself: the answer outgrowing the view, then
  // growing further while the reader is elsewhere.
  const streamedLength = () => page.locator(".message.streaming").evaluate((el) => el.textContent.length).catch(() => 0);
  const grows = async () => {
    const from = await streamedLength();
    await page.waitForFunction((n) => (document.querySelector(".message.streaming")?.textContent.length ?? 0) > n + 200, from, { timeout: 15000 });
  };
  await list.evaluate((el) => new Promise((done) => {
    const tall = () => (el.scrollHeight > el.clientHeight * 1.5 ? done() : requestAnimationFrame(tall));
    tall();
  }));
  await grows();
  const following = await below();
  check(following <= 2, `a streaming answer is followed at the bottom (${following}px below)`);
  await list.hover();
  await page.mouse.wheel(0, -300);
  await jump.waitFor({ timeout: 5000 });
  await grows();
  const away = await below();
  check(away > 200 && (await jump.isVisible()), `scrolled up while it streams, the reader stays put (${Math.round(away)}px above the bottom) and Jump to latest shows`);
  await jump.click();
  await jump.waitFor({ state: "hidden", timeout: 5000 });
  await grows();
  const back = await below();
  check(back <= 2 && !(await jump.isVisible()), `Jump to latest returns to the bottom and follows the stream again (${back}px below)`);
  await page.getByRole("button", { name: "Discard" }).click();
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 5000 });

  // The settings popover: a bad temperature is refused in place; good values
  // and "tools off" are kept with the conversation, and /tool is then
  // refused with the reason.
  await page.getByRole("button", { name: "Options" }).click();
  const temp = page.getByLabel("Temperature");
  await temp.fill("7");
  await temp.press("Enter");
  // The server's refusal arrives when it arrives: wait for it.
  const refused = page.getByRole("alert").filter({ hasText: /temperature/i }).first();
  await refused.waitFor({ timeout: 5000 }).catch(() => undefined);
  const said = (await refused.isVisible()) ? await refused.innerText() : "";
  // On a failure, say what was on the page instead.
  const alerts = said ? "" : ` alerts: ${JSON.stringify(await page.getByRole("alert").allInnerTexts())}, state: ${await page.getByTestId("state").innerText()}, field: ${await temp.inputValue()}`;
  check(/temperature/i.test(said), `a temperature of 7 is refused with the reason (${JSON.stringify(said)}${alerts})`);
  await temp.fill("0.4");
  await page.getByLabel("Longest answer (tokens)").fill("300");
  await page.getByLabel("Longest answer (tokens)").press("Enter");
  // Saved by the server (not only shown) before the page goes away.
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/command") && (r.request().postData() ?? "").includes('"tool_use":"off"'));
  await page.getByLabel("Tool use").selectOption("off");
  await saved;
  await page.reload();
  await page.locator(".conversations .open").first().click();
  await page.getByRole("button", { name: "Options" }).click();
  const kept = [await page.getByLabel("Temperature").inputValue(), await page.getByLabel("Longest answer (tokens)").inputValue(), await page.getByLabel("Tool use").inputValue()];
  check(kept.join() === "0.4,300,off", `the answer settings survive a reload (${kept.join(", ")})`);
  await box.fill("/tool read_file read notes.txt");
  await box.press("Enter");
  await page.getByText(/tools are off in this conversation/).waitFor({ timeout: 5000 });
  check(true, "with tools off, /tool is refused with the reason and nothing is sent");
  // The composer took the focus, which closed the popover.
  await page.getByRole("button", { name: "Options" }).click();
  await page.getByLabel("Tool use").selectOption("");
  // Closed before the messages are used: an open popover would take the
  // clicks meant for them (CI once timed out on "Fork from here" so).
  for (let tries = 0; tries < 5 && (await page.getByLabel("Tool use").isVisible()); tries++) {
    await page.keyboard.press("Escape");
    await page.getByLabel("Tool use").waitFor({ state: "hidden", timeout: 2000 }).catch(() => undefined);
  }

  // Branches: fork from the last question (its answer was cancelled, so
  // the fork shares all of main), go on there, come back to main and
  // delete the fork.
  const question = page.locator(".message.user").last();
  await clickOnHover(question, "Fork from here");
  await page.getByText("Branch: Branch 2").waitFor({ timeout: 5000 });
  const openBranches = async () => {
    if (!(await page.locator("details.branches").evaluate((d) => d.open))) await page.locator("details.branches > summary").click();
  };
  const counts = async () => Object.fromEntries((await page.locator(".branches-panel li").allInnerTexts()).filter((t) => /\d+ messages?\b/.test(t)).map((t) => [t.split(" ")[0] === "Branch" ? "fork" : "main", parseInt(/(\d+) messages?\b/.exec(t)?.[1] ?? "0", 10)]));
  await openBranches();
  const sizes = await counts();
  check(sizes.fork === sizes.main + 1, `forking switches to a branch sharing the messages up to the fork point, and records the switch (${sizes.fork} there, ${sizes.main} on main)`);
  await box.fill("on the fork");
  await box.press("Enter");
  await page.getByText("You said: on the fork").waitFor({ timeout: 10000 });
  await openBranches();
  await page.locator(".branches-panel").getByRole("button", { name: /^main/ }).click();
  await page.getByText("Branch: main").waitFor({ timeout: 5000 });
  check(!(await page.getByText("You said: on the fork").isVisible()), "switching back to main shows main's messages");
  await openBranches();
  // The question is the app's own dialog: focus on Cancel (the action
  // cannot be undone), Esc answers no, and the branch stays.
  await page.getByRole("button", { name: "Delete Branch 2" }).click();
  const ask = page.getByRole("alertdialog", { name: "Delete the branch?" });
  await ask.waitFor();
  check(await ask.getByText('Delete the branch "Branch 2"? Messages other branches share stay.').isVisible(), "deleting a branch asks in the app's own dialog, saying what stays");
  check(await page.evaluate(() => document.activeElement?.textContent) === "Cancel", "the question opens with the focus on Cancel");
  await page.screenshot({ path: "e2e/out/chat-confirm.png" });
  const problems = await accessibilityProblems(page);
  check(problems.length === 0, `axe-core finds no serious problem with the question open (${problems.join("; ")})`);
  await page.keyboard.press("Escape");
  await ask.waitFor({ state: "detached" });
  check(await page.getByRole("button", { name: "Delete Branch 2" }).isVisible(), "Esc answers no: the branch stays");
  await page.getByRole("button", { name: "Delete Branch 2" }).click();
  await ask.getByRole("button", { name: "Delete", exact: true }).click();
  const gone = await page.waitForFunction(() => !document.querySelector(".branches"), null, { timeout: 5000 }).then(() => true, () => false);
  check(gone, "deleting the fork (after the confirmation) removes it and the branch panel goes");
  // In a new conversation, a message's actions by keyboard: focused, it
  // shows its buttons; r shows the raw Markdown and back, c copies it.
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  // The new conversation's composer, not the one it replaces.
  await page.waitForFunction(() => document.querySelectorAll(".message").length === 0, null, { timeout: 10000 });
  await box.fill("**bold** and `code`");
  await box.press("Enter");
  await page.locator(".message.assistant strong").filter({ hasText: "bold" }).waitFor({ timeout: 15000 });
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 15000 });
  const focused = page.locator(".message.assistant").last();
  await focused.focus();
  check(await focused.getByRole("button", { name: "Copy as Markdown" }).isVisible(), "a message with the focus shows its actions");
  await page.keyboard.press("r");
  const raw = await focused.getByLabel("Raw text").innerText();
  await page.keyboard.press("r");
  await focused.locator("strong").waitFor({ timeout: 5000 });
  check(raw === "You said: **bold** and `code`", `r shows the raw text and r again the formatted one (${JSON.stringify(raw)})`);
  await page.keyboard.press("c");
  await page.waitForFunction(async () => (await globalThis.navigator.clipboard.readText()).length > 0, null, { timeout: 5000 });
  const copied = await page.evaluate(() => globalThis.navigator.clipboard.readText());
  check(copied === "You said: **bold** and `code`", `c copies the message as Markdown (${JSON.stringify(copied)})`);
  // Ctrl+/ opens the keyboard shortcuts; Esc closes them.
  await page.keyboard.press("Control+/");
  const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await sheet.waitFor({ timeout: 5000 });
  const keys = await sheet.innerText();
  await page.keyboard.press("Escape");
  await sheet.waitFor({ state: "hidden", timeout: 5000 });
  check(keys.includes("copy it as Markdown") && keys.includes("Ctrl+Shift+H"), "Ctrl+/ shows the keyboard shortcuts and Esc closes them");
  await focused.hover();
  await page.screenshot({ path: "e2e/out/chat-actions.png" });
  // Messages come in place with their events: a whole turn loads the
  // conversation once, at its end (for the counts), not after each change.
  const loads = { asked: 0, answered: 0 };
  const isLoad = (r) => r.url().endsWith("/api/command") && (r.postData() ?? "").includes('"type":"load_context"');
  page.on("request", (r) => isLoad(r) && loads.asked++);
  page.on("requestfinished", (r) => isLoad(r) && loads.answered++);
  // In a conversation of its own, after its first turn (which also names it).
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  await page.locator(".conversations li.selected .open", { hasText: "New conversation" }).waitFor({ timeout: 10000 });
  await box.fill("a first question");
  await box.press("Enter");
  await page.locator(".conversations li.selected .open", { hasText: "a first question" }).waitFor({ timeout: 15000 });
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 15000 });
  await page.locator(".message.assistant", { hasText: "You said: a first question" }).getByTestId("speed").waitFor({ timeout: 15000 });
  const settled = async (done) => {
    const until = Date.now() + scaled(15000);
    while (!done() && Date.now() < until) await page.waitForTimeout(50);
  };
  await settled(() => loads.answered >= loads.asked);
  loads.asked = loads.answered = 0;
  await box.fill("a second question");
  await box.press("Enter");
  await page.locator(".message.assistant", { hasText: "You said: a second question" }).getByTestId("speed").waitFor({ timeout: 15000 });
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 15000 });
  await settled(() => loads.answered >= 1);
  check(loads.asked === 1 && loads.answered === 1, `a turn loads the conversation once, at its end (${loads.asked} loads)`);
  // Maths draw under the app's own CSP (KaTeX sets style attributes;
  // any refusal is a console error, checked below).
  await box.fill("Euler: $e^{i\\pi} + 1 = 0$");
  await box.press("Enter");
  const maths = page.locator(".message.assistant .katex").first();
  await maths.waitFor({ timeout: 15000 });
  check((await maths.boundingBox())?.height > 0, "the echoed formula is drawn by KaTeX");
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((e) => !e.includes("status of 400")));
  check(consoleErrors.length === 0, `no console errors (${consoleErrors.join(" | ")})`);
});
