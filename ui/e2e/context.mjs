// Long conversations in a real browser: braid-server with the echo model
// (no delay), the built UI in headless Chromium. A conversation grows past
// the summary threshold of the echo's 8,192-token window; the chat then
// shows where history was summarised (the summary viewable), the full
// history stays one click away, and the meter splits the window.
// Screenshot: e2e/out/context.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { browserSuite, checker, tempDir } from "./lib.mjs";

const { check, finish } = checker();
mkdirSync("e2e/out", { recursive: true });
await browserSuite("context", { check, finish }, { db: join(tempDir("context"), "braid.db"), args: ["--echo", "--echo-delay-ms", "0"] }, async ({ page, url }) => {
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message");
  const state = page.getByTestId("state");
  let turns = 0;
  for (; turns < 12; turns++) {
    const text = Array.from({ length: 300 }, (_, i) => `note${turns}x${i}`).join(" ");
    await box.fill(text);
    await box.press("Enter");
    // Each answer shows up, however fast the turns follow each other (a
    // reload that raced the next turn once left the chat a few turns behind).
    await page.locator(".message.assistant", { hasText: `You said: note${turns}x0 note${turns}x1 ` }).waitFor({ timeout: 30000 });
    await state.filter({ hasText: "Idle" }).waitFor({ timeout: 30000 });
    if (await page.getByRole("button", { name: "Show the full history" }).count()) break;
  }
  // At rest the list stays still: rows taller than the view once made it
  // jump between two windows every frame (~70 scroll events a second).
  // Counted over 60 frames: the jumping it guards against was per frame.
  const scrolls = await page.locator(".messages").evaluate(
    (el) =>
      new Promise((done) => {
        let n = 0;
        let frames = 0;
        el.addEventListener("scroll", () => n++);
        const frame = () => (++frames >= 60 ? done(n) : requestAnimationFrame(frame));
        requestAnimationFrame(frame);
      }),
  );
  // (A snapshot landing in those frames may move it once or twice.)
  check(scrolls < 5, `at rest, with answers taller than the view, the list does not scroll by itself (${scrolls} scroll events in 60 frames)`);
  // The marker stands where the summarised messages were: at the top.
  await page.locator(".messages").evaluate((el) => (el.scrollTop = 0));
  const marker = page.getByTestId("summary");
  await marker.waitFor({ timeout: 5000 });
  check((await marker.count()) === 1, `after ${turns + 1} long turns the chat marks where history was summarised`);
  const label = await marker.locator("summary").innerText();
  check(/\d+ earlier messages summarised/.test(label), `the marker says how many (${label})`);
  await marker.locator("summary").click();
  const body = await marker.innerText();
  check(body.includes("You said: User: note0x0"), "the summary itself can be read");
  await page.getByRole("button", { name: "Show the full history" }).click();
  await page.getByRole("button", { name: "Show the summarised view" }).waitFor();
  await page.locator(".messages").evaluate((el) => (el.scrollTop = 0));
  await page.locator(".message.user", { hasText: "note0x0 note0x1" }).first().waitFor({ timeout: 5000 }).catch(() => {});
  const shownAfter = await page.locator(".message.user", { hasText: "note0x0 note0x1" }).count();
  check(shownAfter === 1, "the full history shows the summarised messages again");
  const meter = await page.getByTestId("meter").innerText();
  const title = await page.locator(".meter").getAttribute("title");
  check(/\/ 8,192 tokens/.test(meter) && /System \d+ · Tools [\d,]+ · Messages [\d,]+ · Reserved for the answer [\d,]+/.test(title ?? ""), `the meter shows the window and its parts (${meter}; ${title})`);
  await page.screenshot({ path: "e2e/out/context.png" });
  check(errors.length === 0, `no console errors (${errors.join(" | ")})`);
});
