// Conversations out of Braid and back, in a real browser against
// braid-server with the echo model: the row menu exports Braid JSON and
// Markdown as downloads; Import turns the JSON back into a new
// conversation, opened, with every message, beside the original; a Claude
// Code session and ChatGPT's export come in too; a file that is none of
// these is refused with the reason and changes nothing.
// Screenshots: e2e/out/transfer.png, transfer-claude-code.png, transfer-refused.png.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { browserSuite, checker, echoChat, tempDir } from "./lib.mjs";

const { check, finish } = checker();
const dir = tempDir("transfer");
mkdirSync("e2e/out", { recursive: true });
await browserSuite("transfer", { check, finish }, { db: join(dir, "t.db"), args: ["--echo"], page: { viewport: { width: 1200, height: 760 }, acceptDownloads: true } }, async ({ page, url, consoleErrors }) => {
  await page.goto(url);
  const { box, idle, say } = echoChat(page);
  const list = page.locator("nav.conversations");
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  await say("how do I rotate the logs");
  await say("and keep a week of them");
  const row = list.locator("li", { has: page.locator(".open", { hasText: "how do I rotate the logs" }) });
  await row.waitFor({ timeout: 10000 });
  const title = await row.locator(".open").evaluate((b) => b.firstChild.textContent.trim());

  // Export: each format through the row's menu, as a download.
  let downloads = 0;
  const download = async (item) => {
    await row.getByRole("button", { name: /^Actions for / }).click();
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: item, exact: true }).click()]);
    // Each its own file: the same name twice would replace the first.
    const path = join(dir, `${++downloads}-${file.suggestedFilename()}`);
    await file.saveAs(path);
    return { name: file.suggestedFilename(), text: readFileSync(path, "utf8"), path };
  };
  const json = await download("Export as Braid JSON");
  const doc = JSON.parse(json.text);
  check(json.name.endsWith(".braid.json") && doc.format === "braid.conversation" && doc.version === 1, `Braid JSON downloads (${json.name})`);
  check(doc.messages.length === 4 && doc.branches.length === 1, `with every message and branch (${doc.messages.length} messages)`);
  const md = await download("Export as Markdown");
  check(md.name.endsWith(".md") && md.text.includes("**User:**\n\nhow do I rotate the logs") && md.text.includes("You said: and keep a week of them"), `Markdown downloads, readable (${md.name})`);

  // Secrets: an export holds the placeholder the model saw; the menu's
  // last entry, for a backup of one's own, keeps the real value.
  const TOKEN = "ghp_E2eTransferToken0123456789abcdefgh";
  await box.fill(`my token is ${TOKEN}`);
  await box.press("Enter");
  // The echo says back what it was sent: the placeholder.
  await page.getByText(/You said: my token is secret-github-[0-9a-f]{8}/).waitFor({ timeout: 15000 });
  await idle();
  const hidden = await download("Export as Braid JSON");
  const kept = await download("Export as Braid JSON, secrets included");
  check(!hidden.text.includes(TOKEN) && /secret-github-[0-9a-f]{8}/.test(hidden.text) && kept.text.includes(TOKEN), "an export holds the placeholder; “secrets included” holds the token");

  // Import: a new conversation beside the original, opened, whole.
  await page.getByLabel("Conversation file to import").setInputFiles(json.path);
  const note = await page.getByTestId("app-note").filter({ hasText: "Imported" }).innerText({ timeout: 10000 });
  check(note.includes(`Imported “${title}”`), `the import says so (${note.split("\n")[0]})`);
  await page.waitForFunction((t) => [...globalThis.document.querySelectorAll("nav.conversations .open")].filter((b) => b.textContent.startsWith(t)).length === 2, title, { timeout: 10000 });
  await page.getByText("You said: and keep a week of them").waitFor({ timeout: 10000 });
  const shown = await page.locator(".message").count();
  check(shown === 4, `the imported conversation opens with its ${shown} messages, beside the original`);
  await say("and compress them");
  check(true, "it takes the next message");
  await page.screenshot({ path: "e2e/out/transfer.png" });

  // People switching bring their history: a Claude Code session opens
  // with its tool calls on cards; ChatGPT's export brings every chat.
  const fixtures = join(import.meta.dirname, "../../tests/fixtures/import");
  await page.getByLabel("Conversation file to import").setInputFiles(join(fixtures, "claude-code-session.jsonl"));
  await page.getByTestId("app-note").filter({ hasText: "Why does the parser test fail?" }).waitFor({ timeout: 10000 });
  await page.getByText("The test expects Eof; the parser returns Unexpected.").waitFor({ timeout: 10000 });
  const cards = await page.getByTestId("tool-card").allInnerTexts();
  check(cards.length === 3 && cards[1].includes("Bash") && cards[1].includes("failed"), `a Claude Code session opens with its tool calls (${cards.map((c) => c.split("\n")[0]).join(", ")})`);
  await page.screenshot({ path: "e2e/out/transfer-claude-code.png" });
  await page.getByLabel("Conversation file to import").setInputFiles(join(fixtures, "chatgpt-conversations.json"));
  const chats = await page.getByTestId("app-note").filter({ hasText: "Imported 2 conversations" }).innerText({ timeout: 10000 });
  await list.locator(".open", { hasText: "Sourdough schedule" }).waitFor({ timeout: 10000 });
  check(chats.includes("Imported 2 conversations"), "ChatGPT's export brings each of its conversations");

  // A file that is not one: the reason, nothing new.
  const bad = join(dir, "notes.json");
  writeFileSync(bad, JSON.stringify({ format: "chatgpt", conversations: [] }));
  const before = await list.locator(".open").count();
  await page.getByLabel("Conversation file to import").setInputFiles(bad);
  const refused = await page.locator(".import-error").innerText({ timeout: 10000 });
  check(refused.includes("notes.json") && refused.includes("not a Braid conversation"), `a bad file is refused with the reason (${refused})`);
  check((await list.locator(".open").count()) === before, "and nothing was added");
  await page.screenshot({ path: "e2e/out/transfer-refused.png" });
  check(consoleErrors.filter((e) => !e.includes("400")).length === 0, `no console errors (${consoleErrors.join(" | ")})`);
});
