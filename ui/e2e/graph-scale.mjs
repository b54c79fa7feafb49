// The history graph and the branch menu at 50 and 200 branches, in a real
// browser: seeded conversations (crates/braid-store/examples/seed) opened
// with Ctrl+Shift+H; at the top, the middle and the end of the history
// every row in view keeps room for its label (the lanes narrow, then fold
// onto the column's edge, taking at most 45 % of the panel); the branch
// menu lists the branches as people count, offers a filter and scrolls
// inside the window; the conversation list shows eight and a button for
// the rest. Screenshots: e2e/out/graph-<n>-branches.png.
import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import { browserSuite, checker, OUT, tempDir } from "./lib.mjs";

const { check, finish } = checker();
const dir = tempDir("graph-scale");
const db = join(dir, "graph.db");
const seed = process.env.BRAID_SEED_BIN ?? resolve("../target/debug/examples/seed");
execFileSync(seed, [db, "1000", "Fifty branches", "50"]);
execFileSync(seed, [db, "1001", "Two hundred branches", "200"]);

await browserSuite("graph-scale", { check, finish }, { db, args: ["--echo"], page: { viewport: { width: 1280, height: 860 } } }, async ({ page, url, consoleErrors }) => {
  await page.goto(url);
  for (const [title, n] of [["Fifty branches", 50], ["Two hundred branches", 200]]) {
    await page.getByText(title, { exact: true }).first().click();
    await page.locator(".chat-header h1").filter({ hasText: title }).waitFor();
    await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 30000 });
    await page.keyboard.press("Control+Shift+H");
    const listbox = page.getByRole("listbox", { name: /Messages of every branch/ });
    await listbox.waitFor();
    await page.locator(".graph-row").first().waitFor();
    const cramped = [];
    for (const where of ["top", "middle", "end"]) {
      await listbox.evaluate((el, w) => { el.scrollTop = w === "top" ? 0 : w === "middle" ? el.scrollHeight / 2 : el.scrollHeight; }, where);
      await page.waitForTimeout(150);
      const seen = await page.evaluate(() => {
        const panel = document.querySelector(".graph-rows").getBoundingClientRect();
        const lanes = document.querySelector("canvas.graph-lanes").getBoundingClientRect().width;
        const rows = [...document.querySelectorAll(".graph-row")].filter((r) => {
          const b = r.getBoundingClientRect();
          return b.bottom > panel.top && b.top < panel.bottom;
        });
        // Room left for the label (a tip's name, then the text): from
        // where it starts to the panel's right edge.
        const room = rows.map((r) => panel.right - r.firstElementChild.getBoundingClientRect().left);
        return { panel: panel.width, lanes, rows: rows.length, room: Math.min(...room) };
      });
      if (!(seen.rows > 5 && seen.lanes <= seen.panel * 0.45 + 1 && seen.room >= seen.panel * 0.5)) cramped.push(`${where}: ${JSON.stringify(seen)}`);
      if (where === "middle") await page.screenshot({ path: join(OUT, `graph-${n}-branches.png`) });
    }
    check(cramped.length === 0, `${n} branches: every row in view keeps over half the panel for its label, at the top, middle and end (${cramped.join("; ") || "all roomy"})`);
    await listbox.focus();
    await page.keyboard.press("Escape");
    await page.locator(".graph-panel").waitFor({ state: "detached" });

    // The branch menu: natural order, a filter, inside the window.
    const menu = page.locator("details.branches");
    await menu.locator("summary").click();
    const names = (await page.locator(".branches-panel .branch-name").allInnerTexts()).map((t) => t.replace(/\s*\d+ messages?$/, "").trim());
    const filter = page.locator(".branches-panel").getByLabel("Filter branches");
    const box = await page.locator(".branches-panel").boundingBox();
    const natural = names[0] === "main" && names[1] === "idea 2" && names[2] === "idea 3" && names[9] === "idea 10";
    check(natural && (await filter.count()) === 1 && box && box.y + box.height <= 860, `${n} branches: the menu lists them as people count (${names.slice(0, 4).join(", ")} … ${names[9]}), has a filter and stays inside the window`);
    await filter.fill("idea 19");
    const filtered = (await page.locator(".branches-panel .branch-name").allInnerTexts()).map((t) => t.replace(/\s*\d+ messages?$/, "").trim());
    check(filtered.includes("idea 19") && filtered.length <= (n === 200 ? 13 : 3), `${n} branches: the filter narrows the menu (${filtered.length}: ${filtered.slice(0, 4).join(", ")}…)`);
    await menu.locator("summary").click();

    // The conversation list shows a few of them and a button for the rest.
    const listed = page.getByRole("list", { name: `Branches of ${title}` });
    const few = await listed.getByRole("listitem").count();
    const more = listed.getByRole("button", { name: /more branches/ });
    const moreText = await more.innerText();
    await more.click();
    const all = await listed.getByRole("listitem").count();
    check(few <= 10 && moreText.startsWith(`${n - 8} more`) && all === n + 1, `${n} branches: the conversation list shows ${few - 1} and "${moreText}", which shows all ${all - 1}`);
    await listed.getByRole("button", { name: "Fewer branches" }).click();
  }
  check(consoleErrors.length === 0, `no console errors (${consoleErrors.join(" | ")})`);
});
