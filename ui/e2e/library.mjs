// Finding conversations again, in a real browser against braid-server
// with the echo model: a conversation is named after its first exchange,
// full-text search finds a word inside a message of another conversation
// (with its line, the word marked) and opens it there, marked; a pin
// moves a conversation into "Pinned" and lasts a reload; the list is
// grouped by date; axe-core finds no serious accessibility problem in the
// chat, the search results, the shortcuts sheet or the history graph, in
// the light theme or the dark one.
// Screenshot: e2e/out/library.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { accessibilityProblems, browserSuite, checker, echoChat, tempDir } from "./lib.mjs";

const { check, finish } = checker();
mkdirSync("e2e/out", { recursive: true });
await browserSuite("library", { check, finish }, { db: join(tempDir("library"), "l.db"), args: ["--echo"], page: { viewport: { width: 1200, height: 760 } } }, async ({ page, url, consoleErrors }) => {
  await page.goto(url);
  const { say } = echoChat(page);
  const list = page.locator("nav.conversations");

  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  await say("where does the zebra config live");
  for (const q of ["and the logs", "and the cache", "and the queue"]) await say(q);
  await list.locator(".open", { hasText: "where does the zebra config live" }).waitFor({ timeout: 10000 });
  check(true, "the first conversation is named after its first exchange");
  // The new conversation's chat replaces the old one: wait for it (an
  // empty list), or the question can go to the one being replaced.
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  await page.locator(".chat-header h1", { hasText: "New conversation" }).waitFor({ timeout: 5000 });
  await page.waitForFunction(() => globalThis.document.querySelectorAll(".message").length === 0, null, { timeout: 5000 });
  await say("something else entirely");

  // Search from the second conversation: the word is inside a message of
  // the first; its line is shown with the word marked.
  await page.getByLabel("Search conversations").fill("zeb");
  const results = page.getByRole("region", { name: "Messages found" });
  await results.waitFor({ timeout: 5000 });
  const first = results.locator(".hit").first();
  const marked = await first.locator("mark").first().innerText();
  const line = await first.locator(".hit-line").innerText();
  check(marked.toLowerCase() === "zebra" && line.includes("where does the zebra config live"), `search finds a word inside a message, its line shown and the word marked ("${line}", marked "${marked}")`);
  await page.screenshot({ path: "e2e/out/library.png" });
  await first.click();
  await page.locator(".chat-header h1", { hasText: "where does the zebra config" }).waitFor({ timeout: 5000 });
  const flashed = page.locator(".messages .row.flash");
  await flashed.waitFor({ timeout: 5000 });
  check((await flashed.innerText()).includes("zebra"), "a click opens that conversation at the message, marked");
  await page.getByLabel("Search conversations").fill("");

  // Pin the second conversation: it moves into "Pinned", and stays there
  // after a reload; the others are grouped under Today.
  await list.locator("li", { hasText: "something else entirely" }).hover();
  await page.getByRole("button", { name: /^Pin something else entirely/ }).click();
  const pinned = page.getByRole("region", { name: "Pinned" });
  await pinned.getByText("something else entirely").waitFor({ timeout: 5000 });
  await page.reload();
  await page.getByRole("region", { name: "Pinned" }).getByText("something else entirely").waitFor({ timeout: 10000 });
  const today = await page.getByRole("region", { name: "Today" }).innerText();
  check(today.includes("where does the zebra") && !today.includes("something else"), "a pin lasts a reload; the rest is grouped under Today");
  await page.getByRole("button", { name: /^Unpin something else entirely/ }).click();
  await page.getByRole("region", { name: "Pinned" }).waitFor({ state: "detached", timeout: 5000 });
  check(true, "unpinning puts it back under Today");
  // Accessibility, by axe-core: the chat with its list, the search
  // results, the shortcuts sheet, the history graph.
  const problems = [];
  problems.push(...(await accessibilityProblems(page)));
  await page.getByLabel("Search conversations").fill("zebra");
  await page.getByRole("region", { name: "Messages found" }).waitFor({ timeout: 5000 });
  problems.push(...(await accessibilityProblems(page)));
  await page.getByLabel("Search conversations").fill("");
  await page.keyboard.press("Control+/");
  await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
  problems.push(...(await accessibilityProblems(page)));
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+Shift+H");
  await page.locator(".graph-row").first().waitFor({ timeout: 5000 });
  problems.push(...(await accessibilityProblems(page)));
  check(problems.length === 0, `axe-core finds no serious or critical accessibility problem (${[...new Set(problems)].join(" | ")})`);

  // The dark theme, picked in the sidebar: it lasts a reload, and passes
  // the same check. Auto follows the system's choice.
  await page.keyboard.press("Escape");
  await page.getByLabel("Theme").selectOption("dark");
  await page.reload();
  await page.locator(".conversations .open").first().waitFor();
  const dark = await page.evaluate(() => [globalThis.document.documentElement.dataset.theme, globalThis.getComputedStyle(globalThis.document.documentElement).colorScheme]);
  const darkProblems = await accessibilityProblems(page);
  check(dark[0] === "dark" && dark[1] === "dark" && darkProblems.length === 0, `the dark theme lasts a reload and has no serious accessibility problem (${dark.join(", ")}; ${darkProblems.join(" | ")})`);
  await page.screenshot({ path: "e2e/out/library-dark.png" });
  await page.getByLabel("Theme").selectOption("system");
  await page.emulateMedia({ colorScheme: "dark" });
  const auto = await page.evaluate(() => globalThis.getComputedStyle(globalThis.document.documentElement).colorScheme);
  await page.emulateMedia({ colorScheme: "light" });
  const autoLight = await page.evaluate(() => globalThis.getComputedStyle(globalThis.document.documentElement).colorScheme);
  check(auto === "dark" && autoLight === "light", `Auto follows the system (${auto}, then ${autoLight})`);
  check(consoleErrors.length === 0, `no console errors (${consoleErrors.join(" | ")})`);
});
