// The conversation's header in a real browser, with a second branch (an
// answer written again makes one): at 1024, 1280 and 1920 px wide, in the
// light and the dark theme, every control is inside the window and whole
// (none cut to "Op"), wrapping onto a second row where one is not enough;
// the empty conversation before it offers ways to begin.
// Screenshots: e2e/out/header-<width>-<theme>.png.
import { join } from "node:path";
import { accessibilityProblems, browserSuite, checker, clickOnHover, echoChat, tempDir } from "./lib.mjs";

const { check, finish } = checker();
await browserSuite("header", { check, finish }, { db: join(tempDir("header"), "braid.db"), args: ["--echo", "--echo-delay-ms", "0"] }, async ({ page, url }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const { box, say } = echoChat(page);
  // An empty conversation offers ways to begin and names its model.
  const empty = page.getByTestId("empty-chat");
  await empty.waitFor({ timeout: 10000 });
  const starters = empty.getByRole("list", { name: "Ways to begin" }).getByRole("button");
  // (The model's name comes with the conversation's snapshot.)
  await empty.getByText("built-in echo").waitFor({ timeout: 10000 }).catch(() => undefined);
  const intro = await empty.innerText();
  check((await starters.count()) === 4 && intro.includes("built-in echo"), `the empty chat names its model and offers 4 ways to begin (${intro.slice(0, 60)})`);
  const first = await starters.first().innerText();
  await starters.first().click();
  const filled = await page.waitForFunction((t) => document.querySelector("textarea[aria-label=Message]")?.value === t, first, { timeout: 5000 }).then(() => true, () => false);
  check(filled, "a starter fills the message box, unsent");
  await box.fill("");
  await say("Plan the migration of the billing service to the new cluster, step by step.");
  await clickOnHover(page.locator(".message.assistant").first(), "Answer again");
  await page.locator(".message.assistant").first().waitFor();
  await page.getByRole("combobox", { name: "Model for this branch" }).waitFor({ timeout: 15000 });
  for (const theme of ["light", "dark"]) {
    await page.getByRole("combobox", { name: "Theme" }).selectOption(theme);
    for (const width of [1024, 1280, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      await page.waitForTimeout(100);
      // Each control: inside the window, and as wide as its content
      // (a control squeezed shows a part of its label).
      const problems = await page.locator(".chat-header").evaluate((header) => {
        const out = [];
        const controls = header.querySelectorAll("button, select, [role=combobox]");
        for (const c of controls) {
          const r = c.getBoundingClientRect();
          const name = c.getAttribute("aria-label") || c.textContent?.trim() || c.tagName;
          if (r.width === 0) continue; // hidden by design (e.g. the sr-only)
          if (r.right > window.innerWidth + 1 || r.left < -1) out.push(`${name}: outside (${Math.round(r.left)}–${Math.round(r.right)})`);
          if (c.tagName === "BUTTON" && c.scrollWidth > c.clientWidth + 2) out.push(`${name}: cut (${c.clientWidth} of ${c.scrollWidth} px)`);
        }
        return out;
      });
      check(problems.length === 0, `at ${width} px (${theme}) every header control is whole and in the window (${problems.join("; ") || "all"})`);
      await page.screenshot({ path: `e2e/out/header-${width}-${theme}.png`, clip: { x: 0, y: 0, width, height: 140 } });
      // The branch menu opens inside the window and over the chat, not the
      // conversation list, wherever the header put its button.
      if (theme === "light") {
        await page.locator("details.branches summary").click();
        const [menu, chat] = [await page.locator(".branches-panel").boundingBox(), await page.locator(".chat-header").boundingBox()];
        const inside = menu.x >= chat.x - 1 && menu.x + menu.width <= width + 1;
        check(inside, `at ${width} px the branch menu opens over the chat, inside the window (${Math.round(menu.x)}–${Math.round(menu.x + menu.width)}, chat from ${Math.round(chat.x)})`);
        await page.locator("details.branches summary").click();
      }
    }
  }
  const axe = await accessibilityProblems(page);
  check(axe.length === 0, `axe-core finds no serious problem on the chat screen (${axe.join("; ") || "none"})`);
});
