// Many conversations at once, in a real browser against a scripted model
// (a given tool call, a slow answer): the conversation list shows what
// each one is doing, live, while another is in front — one waits for an
// approval, another writes and then is done unread; "Needs me" shows only
// those; the window's title counts them; opening one clears its mark.
// Screenshot: e2e/out/life.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { browserSuite, checker, OUT, startScriptedModel, tempDir } from "./lib.mjs";

const { check, finish } = checker();
const dir = tempDir("life");
const work = join(dir, "work");
mkdirSync(work);
const model = await startScriptedModel((body) => {
  const last = body.messages.at(-1);
  const said = typeof last.content === "string" ? last.content : JSON.stringify(last.content);
  if (last.role === "tool") return { text: "Written." };
  if (said.includes("write the notes")) return { tool: { name: "write_file", args: { path: "notes.md", content: "notes\n" } } };
  if (said.includes("slow story")) return { text: "Once upon a time.", delayMs: 2500 };
  return { text: "Title" };
});
mkdirSync(OUT, { recursive: true });
await browserSuite("life", { check, finish }, { db: join(dir, "braid.db"), args: ["--base-url", model.url, "--model", "gpt-4o"], cwd: work, cleanup: () => model.close() }, async ({ page, url, consoleErrors }) => {
  await page.goto(url);
  const box = page.getByLabel("Message", { exact: true });
  const send = async (text) => {
    await box.fill(text);
    await box.press("Enter");
  };
  const rows = page.locator(".conversations li").filter({ has: page.locator("button.open") });
  const lifeOf = (i) => rows.nth(i).getByTestId("life").innerText({ timeout: 500 }).catch(() => "");
  const until = async (what, test, ms = 10000) => {
    for (const end = Date.now() + ms; Date.now() < end; await page.waitForTimeout(100)) if (await test()) return true;
    check(false, `waited 10 s for ${what}`);
    return false;
  };

  // A asks for an approval.
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  await send("write the notes");
  await page.getByRole("dialog", { name: "Approve tool calls" }).waitFor({ timeout: 15000 });
  // B comes in front; A goes on waiting behind it.
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  await box.waitFor();
  await until("A's mark", async () => (await lifeOf(1)).startsWith("Needs your approval"));
  const a = await lifeOf(1);
  check(a === "Needs your approval: write_file" && (await page.title()) === "(1) Braid", `a conversation behind the one in front shows it waits for an approval, and the title counts it (${a}; ${await page.title()})`);
  await page.getByRole("button", { name: "Needs me (1)" }).click();
  const only = await rows.count();
  await page.getByRole("button", { name: "Needs me (1)" }).click();
  check(only === 1 && (await rows.count()) === 2, `"Needs me" lists only the conversation waiting (${only} of 2)`);

  // B writes slowly; A comes in front meanwhile: B shows it writes, then
  // that it is done and unread.
  await send("slow story");
  await page.getByTestId("state").filter({ hasText: /Streaming|Waiting for the first/ }).waitFor({ timeout: 10000 }).catch(() => undefined);
  await rows.nth(1).locator("button.open").click();
  const writing = await until("B writing", async () => (await lifeOf(0)) === "Writing…", 3000).then(() => lifeOf(0));
  await until("B done", async () => (await lifeOf(0)) === "Done");
  check(writing === "Writing…" && (await lifeOf(0)) === "Done", `a conversation in the background shows it writes, then that it is done and unread (${writing} → ${await lifeOf(0)})`);
  await until("the title", async () => (await page.title()) === "(2) Braid");
  check((await page.title()) === "(2) Braid", `the title counts both: the approval and the unread answer (${await page.title()})`);
  await page.screenshot({ path: join(OUT, "life.png") });

  // A approved in front: its mark goes; B opened: its mark goes.
  const dialog = page.getByRole("dialog", { name: "Approve tool calls" });
  await dialog.waitFor();
  await page.keyboard.press("Enter");
  await page.getByText("Written.").waitFor({ timeout: 10000 });
  // (The list is in order of the last change: find rows by their mark.)
  const marks = () => page.getByTestId("life").allInnerTexts();
  await until("A's mark gone", async () => !(await marks()).some((m) => m.startsWith("Needs your approval")));
  const left = await marks();
  await rows.filter({ has: page.getByTestId("life").filter({ hasText: "Done" }) }).locator("button.open").click();
  await until("B's mark gone", async () => (await marks()).length === 0);
  check(left.join() === "Done" && (await marks()).length === 0 && (await page.title()) === "Braid", `answered and read: the approval's mark goes, the answer's once opened, and the title is plain again (${left.join()} → ${(await marks()).join() || "none"}; ${await page.title()})`);
  check(consoleErrors.length === 0, `no console errors (${consoleErrors.join(" | ")})`);
});
