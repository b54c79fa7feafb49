// Branches and merges in a real browser against braid-server with the
// echo model: fork twice, chat on each line, open the history graph
// (Ctrl+Shift+H) and move through it by keyboard, merge one fork by
// summary (the model drafts it), undo it, and merge the other by append
// with a preview first. Screenshots: e2e/out/graph.png, e2e/out/merge.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { browserSuite, checker, clickOnHover, echoChat, tempDir } from "./lib.mjs";

const { check, finish } = checker();
const out = join(import.meta.dirname, "out");
mkdirSync(out, { recursive: true });
await browserSuite("branches", { check, finish }, { db: join(tempDir("branches"), "b.db"), args: ["--echo"], page: { viewport: { width: 1200, height: 760 } } }, async ({ page, url, consoleErrors }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const { say } = echoChat(page);
  const branchPanel = page.locator("details.branches");
  const openBranches = async () => {
    if ((await branchPanel.getAttribute("open")) === null) await branchPanel.locator("summary").click();
  };
  const switchTo = async (name) => {
    await openBranches();
    await page.locator(".branches-panel").getByRole("button", { name: new RegExp(`^${name} `) }).click();
    await page.locator("details.branches summary").filter({ hasText: name }).waitFor();
  };

  await say("which cache should we use");
  // Two forks from the first answer, each explored on its own.
  const answer = page.locator(".message.assistant").first();
  for (const [name, text] of [["Branch 2", "try redis"], ["Branch 3", "try memcached"]]) {
    await clickOnHover(answer, "Fork from here");
    await page.locator("details.branches summary").filter({ hasText: name }).waitFor();
    await say(text);
    await switchTo("main");
  }
  await say("meanwhile on main");
  check(true, "forked twice from the UI and chatted on both forks and on main");

  // A branch's own system prompt, set in the branch panel: it is kept
  // (after a reload too) and marked.
  await openBranches();
  await page.getByRole("button", { name: "System prompt of Branch 2" }).click();
  const promptBox = page.getByLabel("System prompt for Branch 2");
  await promptBox.fill("Answer in one line.");
  await promptBox.press("Control+Enter");
  await page.locator(".branches-panel .icon.set").waitFor({ timeout: 5000 });
  await page.reload();
  await openBranches();
  const marked = await page.getByRole("button", { name: "System prompt of Branch 2" }).getAttribute("title");
  await page.getByRole("button", { name: "System prompt of Branch 2" }).click();
  const kept = await page.getByLabel("System prompt for Branch 2").inputValue();
  check(kept === "Answer in one line." && marked.includes("has its own system prompt"), `a branch's own system prompt is saved and marked after a reload ("${kept}")`);
  await page.getByLabel("System prompt for Branch 2").press("Escape");
  await branchPanel.locator("summary").click();

  // The graph: rows for every message of every branch, three tips.
  await page.keyboard.press("Control+Shift+H");
  const graph = page.getByRole("listbox", { name: /Messages of every branch/ });
  await graph.waitFor();
  const rows = await page.locator(".graph-row").count();
  const switchRows = await page.locator(".graph-row").filter({ hasText: "switched to" }).count();
  check(rows === 8 && switchRows === 0, `the history graph shows the messages of every branch, switches folded away (${rows} rows, ${switchRows} switch rows)`);
  const tips = await page.locator(".graph-tip").allInnerTexts();
  check(["main", "Branch 2", "Branch 3"].every((t) => tips.some((x) => x.includes(t))), `each branch's tip is labelled (${tips.join(" | ")})`);
  await graph.focus();
  const selected = () => page.locator(".graph-row.selected").innerText();
  const start = await selected();
  await page.keyboard.press("ArrowUp");
  const up = await selected();
  await page.keyboard.press("Alt+ArrowLeft");
  const fork = await selected();
  await page.keyboard.press("ArrowDown");
  const down = await selected();
  // main's question is the last of the fork point's three followers.
  await page.keyboard.press("Alt+ArrowUp");
  const sibling = await selected();
  const path = [start, up, fork, down, sibling].map((s) => s.replace(/\s+/g, " ").slice(0, 28));
  // ↓ from the fork point carries main's line on: back to its question.
  check(new Set(path).size === 4 && path[2].includes("which c") && path[3] === path[1] && path[4].includes("try memc"), `↑, Alt+←, ↓ and Alt+↑ move through the graph (${path.join(" → ")})`);
  await page.screenshot({ path: join(out, "graph.png") });

  // Open a message of another branch in the chat: Enter switches to its
  // branch and brings it into view, marked; "Open in chat" goes back.
  await page.locator(".graph-row").filter({ hasText: "try memcached" }).first().click();
  await graph.focus();
  await page.keyboard.press("Enter");
  await page.locator("details.branches summary").filter({ hasText: "Branch 3" }).waitFor({ timeout: 5000 });
  const flashed = page.locator(".messages .row.flash");
  await flashed.waitFor({ timeout: 5000 });
  const shown = (await flashed.innerText()).includes("try memcached") && (await flashed.isVisible());
  check(shown, "Enter on a row of another branch switches to it and shows that message in the chat, marked");
  await page.locator(".graph-row").filter({ hasText: "meanwhile on main" }).first().click();
  await page.getByRole("button", { name: "Open in chat" }).click();
  await page.locator("details.branches summary").filter({ hasText: "main" }).waitFor({ timeout: 5000 });
  check(true, "Open in chat takes a message of main back to main");

  // Merge Branch 2 by summary from the graph: select its row, Merge.
  await page.locator(".graph-row").filter({ hasText: "try redis" }).first().click();
  await page.getByRole("button", { name: "Merge Branch 2 into main…" }).click();
  const dialog = page.getByRole("dialog", { name: "Merge into main" });
  await dialog.waitFor();
  await dialog.getByText(/write the summary/).waitFor({ timeout: 5000 });
  check(await dialog.getByRole("button", { name: "Merge", exact: true }).isDisabled(), "a summary merge waits for its text");
  await dialog.getByRole("button", { name: "Write it with the model" }).click();
  await dialog.getByLabel("Summary to merge").filter({ hasText: "try redis" }).waitFor({ timeout: 15000 });
  await dialog.getByLabel("Summary to merge").press("End");
  await dialog.getByLabel("Summary to merge").pressSequentially(" Redis it is.");
  await page.screenshot({ path: join(out, "merge.png") });
  await dialog.getByRole("button", { name: "Merge", exact: true }).click();
  const card = page.getByTestId("merge-card").last();
  await card.waitFor({ timeout: 10000 });
  check((await card.innerText()).includes("Redis it is."), "the merge card carries the summary as edited");

  // Undo: the card stays, marked undone. The graph closes with Escape.
  await graph.focus();
  await page.keyboard.press("Escape");
  await graph.waitFor({ state: "detached" });
  await card.getByRole("button", { name: "Undo merge" }).click();
  await card.filter({ hasText: "undone" }).waitFor({ timeout: 10000 });
  check(true, "undoing the merge keeps the card in the history, marked undone");

  // Compare Branch 3 with main side by side, from the graph.
  await page.keyboard.press("Control+Shift+H");
  await page.locator(".graph-row").filter({ hasText: "try memcached" }).first().click();
  await page.getByRole("button", { name: "Compare with main" }).click();
  const compare = page.getByRole("dialog", { name: "main and Branch 3" });
  await compare.waitFor();
  await compare.getByRole("region", { name: "Branch 3 since the fork" }).getByText("try memcached").first().waitFor();
  const ours = await compare.getByRole("region", { name: "main since the fork" }).innerText();
  check(ours.includes("meanwhile on main") && !ours.includes("try memcached"), "compare shows both branches side by side from their common ancestor");
  await compare.getByRole("button", { name: "Close" }).click();
  await page.keyboard.press("Control+Shift+H");
  await page.locator(".graph-panel").waitFor({ state: "detached" });

  // Append Branch 3 from the branch panel, after looking at the preview.
  await openBranches();
  await page.getByRole("button", { name: "Merge Branch 3 into main" }).click();
  await dialog.waitFor();
  await dialog.getByLabel("Append").check();
  await dialog.locator(".merge-items li").filter({ hasText: "brought" }).first().waitFor();
  const figures = await dialog.locator(".merge-figures").innerText();
  check(/\+\d+ tokens/.test(figures), `the preview shows the tokens it adds (${figures})`);
  await dialog.getByRole("button", { name: "Merge", exact: true }).click();
  // In the chat, not the preview (which lists the same text until the
  // dialog closes).
  await dialog.waitFor({ state: "detached", timeout: 10000 });
  await page.locator(".message.assistant").filter({ hasText: "You said: try memcached" }).first().waitFor({ timeout: 10000 });
  const copied = await page.locator(".message.user").filter({ hasText: "try memcached" }).count();
  const onMain = await page.locator("details.branches summary").innerText();
  check(copied >= 1 && onMain.includes("main"), `an append merge copies the fork's messages into main (${copied} question, on ${onMain.split("\n")[0]})`);

  // Editing a question sends it again as a new version (an unnamed
  // branch); ‹ › on the question switches between the versions, and
  // main keeps the original.
  const asked = page.locator(".message.user").filter({ hasText: "meanwhile on main" });
  await clickOnHover(asked, "Edit and send again");
  await page.getByLabel("Edited message").fill("meanwhile, on main, edited");
  await page.getByLabel("Edited message").press("Enter");
  await page.getByText("You said: meanwhile, on main, edited").waitFor({ timeout: 10000 });
  const onEdit = await page.locator("details.branches summary").innerText();
  const edited = page.locator(".message.user").filter({ hasText: "meanwhile, on main, edited" });
  const versionOf = (m) => m.getByRole("group", { name: /^Version \d+ of \d+$/ }).getAttribute("aria-label", { timeout: 5000 }).catch(() => "none");
  const v2 = await versionOf(edited);
  // Every way the conversation went on from there is a version: the two
  // forks' questions, main's, and the edit (the newest).
  check(onEdit.includes("unnamed") && v2 === "Version 4 of 4" && !(await page.getByText("You said: meanwhile on main").isVisible()), `an edited question is a second version on an unnamed branch, without the original (${onEdit.trim()}; ${v2})`);
  const switchLines = await page.locator(".message.system, .system").filter({ hasText: "Switched branch" }).count();
  check(switchLines === 0, `no "Switched branch" line hides the original (${switchLines})`);
  await edited.getByRole("button", { name: "Previous version" }).click();
  await page.getByText("You said: meanwhile on main").waitFor({ timeout: 5000 });
  const v1 = await versionOf(page.locator(".message.user").filter({ hasText: "meanwhile on main" }));
  const backOnMain = await page.locator("details.branches summary").innerText();
  check(v1 === "Version 3 of 4" && backOnMain.includes("main"), `‹ shows the original question and its answer, on main (${v1}, ${backOnMain.trim()})`);
  // By keyboard: ] on the focused question goes to the next version.
  await page.locator(".message.user").filter({ hasText: "meanwhile on main" }).focus();
  await page.keyboard.press("]");
  const next = await page.getByText("You said: meanwhile, on main, edited").waitFor({ timeout: 5000 }).then(() => versionOf(page.locator(".message.user").filter({ hasText: "meanwhile, on main, edited" })), () => "not shown");
  check(next === "Version 4 of 4", `] on a focused question shows its next version (${next})`);
  // Answer again: the answer gets versions where it stands.
  const lastAnswer = page.locator(".message.assistant").filter({ hasText: "You said: meanwhile, on main, edited" });
  await clickOnHover(lastAnswer, "Answer again");
  const answerVersion = await versionOf(page.locator(".message.assistant").last());
  const answered = await page.locator(".message.assistant").filter({ hasText: "You said: meanwhile, on main, edited" }).count();
  check(answerVersion === "Version 2 of 2" && answered === 1, `an answer written again is its second version, shown in place of the first (${answerVersion}, ${answered} shown)`);
  if ((await branchPanel.getAttribute("open")) !== null) await branchPanel.locator("summary").click();
  await page.screenshot({ path: join(out, "versions.png") });
  await switchTo("main");
  check(await page.getByText("You said: meanwhile on main").isVisible(), "main keeps the original question and answer");
  if ((await branchPanel.getAttribute("open")) !== null) await branchPanel.locator("summary").click();

  await page.keyboard.press("Control+Shift+H");
  await page.locator(".graph-row").filter({ hasText: "merged Branch 3" }).waitFor();
  const diamonds = await page.locator(".graph-row").filter({ hasText: /merged Branch [23]/ }).count();
  check(diamonds === 2, `both merges are in the graph, the undone one too (${diamonds})`);
  await page.screenshot({ path: join(out, "merged.png") });
  const domNodes = await page.locator(".graph-panel *").count();
  check(domNodes < 200, `the graph panel keeps few DOM nodes (${domNodes})`);

  // From the graph: rename the branch of a selected message, delete another.
  const actions = page.locator(".graph-actions");
  await page.locator(".graph-row").filter({ hasText: "try memcached" }).first().click();
  await actions.getByRole("button", { name: "Rename Branch 3" }).click();
  await actions.getByLabel("New name for Branch 3").fill("memcached idea");
  await actions.getByLabel("New name for Branch 3").press("Enter");
  const listed = page.getByRole("list", { name: /^Branches of / });
  await listed.getByRole("button", { name: /memcached idea/ }).waitFor();
  check(true, "a branch renamed from the graph is renamed in the conversation list too");
  await page.locator(".graph-row").filter({ hasText: "meanwhile, on main, edited" }).first().click();
  const del = actions.getByRole("button", { name: /^Delete unnamed/ });
  const doomed = (await del.innerText()).replace(/^Delete |…$/g, "");
  await del.click();
  await page.getByRole("alertdialog", { name: "Delete the branch?" }).getByRole("button", { name: "Delete", exact: true }).click();
  await listed.getByRole("button", { name: doomed }).waitFor({ state: "detached" });
  const names = (await listed.getByRole("button").allInnerTexts()).map((t) => t.replace(/\s+in use$/, "").trim());
  const named = names.filter((n) => !n.startsWith("unnamed"));
  check(named.join(",") === "main,Branch 2,memcached idea" && names.length === 4, `a branch deleted from the graph leaves the list, the others stay under their conversation (${names.join(", ")})`);
  check(await actions.getByRole("button", { name: "Delete main…" }).count() === 0 || await actions.getByRole("button", { name: "Delete main…" }).isDisabled(), "main cannot be deleted from the graph");

  // A branch picked in the conversation list opens the conversation on it.
  await page.keyboard.press("Escape");
  await page.locator(".graph-panel").waitFor({ state: "detached" });
  check(true, "Esc closes the graph with the focus on its buttons");
  await listed.getByRole("button", { name: /memcached idea/ }).click();
  await page.locator("details.branches summary").filter({ hasText: "memcached idea" }).waitFor();
  await page.getByText("You said: try memcached").first().waitFor();
  check(await listed.getByRole("button", { name: /memcached idea/ }).innerText().then((t) => t.includes("in use")), "a branch picked in the list is switched to and marked in use");
  await page.screenshot({ path: join(out, "list-branches.png") });
  check(consoleErrors.length === 0, `no console errors (${consoleErrors.join("; ")})`);
});
