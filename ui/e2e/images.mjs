// Images in a real browser: braid-server with the built-in echo (a model
// without vision, so Auto reads text with the real Tesseract), the built UI
// in headless Chromium. A PNG with text is dropped onto the composer, a
// second one pasted; the thumbnails, the reading progress, the OCR text
// reaching the model (the echo repeats what it received), the card's
// confidence, the full-size viewer, a refused file, and a reload.
// Screenshots: e2e/out/images-*.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { browserSuite, checker, DELIVER_FILE, tempDir, textPng } from "./lib.mjs";

const { check, finish } = checker();
const work = tempDir("images");
const light = await textPng(work, "build-error.png", "1000x170", ["Build failed: missing semicolon", "at src/parser.rs line 42"]);
const dark = await textPng(work, "dark.png", "900x120", ["Terminal says hello from dark mode"], "#1e1e1e", "#d4d4d4");

mkdirSync("e2e/out", { recursive: true });

const deliver = (page, how, selector, b64, name, type = "image/png") =>
  page.evaluate(({ script, args }) => new Function(script)(...args), { script: DELIVER_FILE, args: [how, selector, b64, name, type] });

await browserSuite("images", { check, finish }, { db: join(tempDir("images-db"), "braid.db"), args: ["--echo", "--echo-delay-ms", "0"], cwd: work, page: { viewport: { width: 1100, height: 760 } } }, async ({ page, url }) => {
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message");
  await box.waitFor();

  // A file that is not an image: refused in the composer, nothing sent.
  await deliver(page, "drop", '[data-testid="composer"]', Buffer.from("%PDF-1.7").toString("base64"), "notes.pdf", "application/pdf");
  await page.getByText("notes.pdf is not a PNG, JPEG, WebP or GIF image").waitFor({ timeout: 5000 });
  check(true, "a dropped PDF is refused in the composer with the reason");
  await page.getByRole("button", { name: "Remove notes.pdf" }).click();
  // Bytes that claim to be PNG but are not: the backend refuses them.
  await deliver(page, "drop", '[data-testid="composer"]', Buffer.from("not really a png").toString("base64"), "fake.png");
  await page.getByTestId("attachment").filter({ hasText: "fake.png" }).getByRole("alert").waitFor({ timeout: 5000 });
  const why = await page.getByTestId("attachment").filter({ hasText: "fake.png" }).getByRole("alert").innerText();
  check(why.includes("PNG, JPEG, WebP or GIF"), `a corrupt image is refused by the backend (${why})`);
  await page.getByRole("button", { name: "Remove fake.png" }).click();

  // Drop a screenshot onto the composer, paste a dark one into the box.
  await deliver(page, "drop", '[data-testid="composer"]', light, "build-error.png");
  await deliver(page, "paste", "textarea", dark, "");
  await page.getByLabel("How to read build-error.png").waitFor({ timeout: 5000 });
  await page.getByLabel("How to read pasted-", { exact: false }).waitFor({ timeout: 5000 });
  check((await page.getByTestId("attachment").count()) === 2, "the dropped and the pasted image wait as thumbnails");
  await page.screenshot({ path: "e2e/out/images-composer.png" });
  // Sent without text: the images are the message.
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByTestId("reading-images").waitFor({ timeout: 5000 }).then(
    () => check(true, "the images show their reading progress while OCR runs"),
    () => check(false, "the images show their reading progress while OCR runs"),
  );
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 30000 });
  const cards = page.getByTestId("image-card");
  await cards.nth(1).waitFor({ timeout: 10000 });
  check((await cards.count()) === 2, "two image cards in the chat");
  const badge = await cards.first().getByTestId("image-reading").innerText();
  const conf = Number(/OCR · (\d+) % confidence/.exec(badge)?.[1] ?? 0);
  check(conf >= 70, `the card shows OCR with its confidence (${badge})`);
  check((await cards.first().getByTestId("image-fallback").innerText()).includes("cannot see images"), "the card says OCR was used because the model cannot see");
  await cards.first().getByTestId("image-text").locator("summary").click();
  const text = await cards.first().getByTestId("image-text").locator("pre").innerText();
  check(text.includes("Build failed") && text.includes("line 42"), `the recognised text unfolds on the card (${JSON.stringify(text)})`);
  await cards.nth(1).getByTestId("image-text").locator("summary").click();
  const darkText = await cards.nth(1).getByTestId("image-text").locator("pre").innerText();
  check(darkText.toLowerCase().includes("dark mode"), `the dark screenshot is read too (${JSON.stringify(darkText)})`);
  const answer = await page.locator(".message.assistant").last().innerText();
  check(answer.includes("text recognised by OCR") && answer.includes("dark mode"), "the model received the OCR text, marked as OCR (the echo repeats it)");
  const notice = await page.locator(".notice").innerText().catch(() => "");
  check(notice.includes("Read with OCR"), `the state line tells the user OCR stood in (${notice})`);
  await page.screenshot({ path: "e2e/out/images-cards.png" });

  // Read again as Vision: the echo cannot see, so the card says so and
  // offers Retry; read again as OCR, and the text is back.
  const firstCard = page.getByTestId("image-card").first();
  await firstCard.getByLabel("Read again as").selectOption("vision");
  await firstCard.getByRole("button", { name: "Read again" }).click();
  await firstCard.getByRole("alert").waitFor({ timeout: 15000 });
  const refused = await firstCard.getByRole("alert").innerText();
  check(refused.includes("cannot see images") && (await firstCard.getByRole("button", { name: "Retry" }).count()) === 1, `reading again as Vision with a model that cannot see is refused on the card, with Retry (${refused})`);
  await firstCard.getByLabel("Read again as").selectOption("ocr");
  await firstCard.getByRole("button", { name: "Retry" }).click();
  await firstCard.getByTestId("image-reading").filter({ hasText: "OCR ·" }).waitFor({ timeout: 15000 });
  check((await firstCard.getByRole("alert").count()) === 0, "Retry as OCR reads it again and the error is gone");
  await page.screenshot({ path: "e2e/out/images-reread.png" });

  // Full size, and back with Esc.
  await cards.first().getByTitle("Open full size").click();
  const viewer = page.getByRole("dialog", { name: "Image build-error.png" });
  await viewer.waitFor({ timeout: 5000 });
  const size = await viewer.locator("img").evaluate((img) => [img.naturalWidth, img.naturalHeight]);
  check(size[0] === 1000 && size[1] === 170, `the viewer shows the image at full size (${size})`);
  await page.screenshot({ path: "e2e/out/images-viewer.png" });
  await page.keyboard.press("Escape");
  await viewer.waitFor({ state: "detached", timeout: 5000 });
  check(true, "Esc closes the viewer");

  // Reload: the cards come back from the store.
  await page.reload();
  await page.getByTestId("image-card").nth(1).waitFor({ timeout: 10000 });
  await page.locator('[data-testid="image-card"] img').first().waitFor({ timeout: 5000 });
  check((await page.getByTestId("image-card").first().getByTestId("image-reading").innerText()).startsWith("OCR"), "after a reload the cards and their thumbnails are back");

  // An image in the workspace, mentioned with @: attached and read too.
  const before = await page.getByTestId("image-card").count();
  await page.getByLabel("Message").fill("what does @dark.png say?");
  await page.getByLabel("Message").press("Enter");
  await page.getByTestId("image-card").nth(before).waitFor({ timeout: 30000 });
  await page.getByTestId("state").filter({ hasText: "Idle" }).waitFor({ timeout: 30000 });
  const mentioned = page.getByTestId("image-card").nth(before);
  const label = await mentioned.innerText();
  check(label.includes("dark.png") && label.includes("OCR ·"), `an image mentioned with @ is attached and read (${JSON.stringify(label.slice(0, 60))})`);

  check(errors.filter((e) => !e.includes("400")).length === 0, `no console errors (${errors.join(" | ")})`);
});
