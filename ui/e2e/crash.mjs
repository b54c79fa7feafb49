// A crash in the middle of an answer, in a real browser: braid-server with
// the slow echo is killed (SIGKILL) while an answer streams; started again
// on the same database, the conversation shows the crash note with a Retry
// button, and Retry asks the model again. Screenshot: e2e/out/crash.png.
import { once } from "node:events";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { checker, launchBrowser, startServer, tempDir } from "./lib.mjs";

const { check, finish } = checker();
const db = join(tempDir("crash"), "braid.db");
let run = startServer(db, ["--echo", "--echo-delay-ms", "40"]);
const browser = await launchBrowser();
mkdirSync("e2e/out", { recursive: true });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(await run.url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message");
  check(await box.evaluate((el) => el === document.activeElement), "a new conversation puts the cursor in the message box");
  await box.fill(Array.from({ length: 200 }, (_, i) => `lost${i}`).join(" "));
  await box.press("Enter");
  await page.locator(".message.streaming", { hasText: "lost3" }).waitFor({ timeout: 15000 });
  run.server.kill("SIGKILL");
  await once(run.server, "exit");

  run = startServer(db, ["--echo", "--echo-delay-ms", "0"]);
  await page.goto(await run.url);
  await page.locator(".conversations .open").first().click();
  const note = page.locator(".message.system", { hasText: "Recovered after a crash" });
  await note.waitFor({ timeout: 10000 });
  const retry = note.getByRole("button", { name: "Retry" });
  check(await retry.isVisible(), `the crash note offers the Retry it names (${JSON.stringify((await note.innerText()).slice(0, 90))})`);
  await page.screenshot({ path: "e2e/out/crash.png" });
  await retry.click();
  await page.locator(".message.assistant", { hasText: "lost199" }).waitFor({ timeout: 15000 });
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 15000 });
  check((await note.getByRole("button", { name: "Retry" }).count()) === 0, "Retry asks again: the answer arrives and the note's button goes");
} catch (e) {
  check(false, `crash flow: ${e.message}`);
} finally {
  await browser.close();
  run.server.kill();
}
finish();
