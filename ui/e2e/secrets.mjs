// A secret through a transform, in a real browser against a scripted model
// that keeps every request: the user gives a key, the model puts its
// placeholder through base64 in a command. The approval says the call runs
// with a secret; its card keeps what it printed from the model ("output
// withheld", with the real output for the user to read); no request
// carries any 10-character piece of the key or of its base64; Release lets
// the model have it from the next request on.
// Screenshots: e2e/out/secret-approval.png, e2e/out/secret-withheld.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { browserSuite, checker, startScriptedModel, tempDir } from "./lib.mjs";

const { check, finish } = checker();
const dir = tempDir("secrets");
const work = join(dir, "work");
mkdirSync(work);
const KEY = "sk-proj-Lw3Nq8Zr5Tb2Vm9Xc4Hk7Yp";
const ENCODED = Buffer.from(`${KEY}\n`).toString("base64");
const bodies = [];
const model = await startScriptedModel((body) => {
  bodies.push(JSON.stringify(body));
  const last = body.messages.at(-1);
  if (!body.tools) return { text: "Keys" };
  if (last.role === "tool") return { text: "Understood." };
  const said = typeof last.content === "string" ? last.content : JSON.stringify(last.content);
  const placeholder = JSON.stringify(body.messages).match(/secret-[a-z0-9-]+-[0-9a-f]{8}/)?.[0];
  if (said.includes("encode") && placeholder) return { tool: { name: "run_command", args: { command: `echo ${placeholder} | base64` } } };
  return { text: "Noted." };
});
const pieces = (s) => Array.from({ length: s.length - 9 }, (_, i) => s.slice(i, i + 10));
const leaked = (from) => [KEY, ENCODED.trim()].flatMap(pieces).filter((p) => bodies.slice(from).some((b) => b.includes(p)));
mkdirSync("e2e/out", { recursive: true });
await browserSuite("secrets", { check, finish }, { db: join(dir, "braid.db"), args: ["--base-url", model.url, "--model", "gpt-4o"], cwd: work, cleanup: () => model.close() }, async ({ page, url }) => {
  await page.goto(url);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const box = page.getByLabel("Message");
  await box.fill(`My key is ${KEY}. Please encode it.`);
  await box.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Approve tool calls" });
  await dialog.waitFor({ timeout: 15000 });
  const note = await dialog.getByTestId("secret-use").innerText();
  check(/Runs with a secret: api-key \(secret-api-key-[0-9a-f]{8}\)/.test(note), `the approval names the secret the call runs with (${note.slice(0, 80)}…)`);
  await page.screenshot({ path: join("e2e/out", "secret-approval.png") });
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();
  const held = page.getByTestId("withheld");
  await held.waitFor({ timeout: 15000 });
  await page.getByText("Understood.").waitFor({ timeout: 15000 });
  const heldText = await held.innerText();
  check(heldText.includes("Kept from the model: this call ran with secret-api-key-"), `the card says the output was kept from the model (${heldText.split("\n")[0]})`);
  await held.locator("summary").click();
  const printed = await held.locator("pre").innerText();
  check(printed.includes(ENCODED.trim()), `the user can read what it printed (${printed.slice(0, 40)}…)`);
  check(bodies.some((b) => b.includes("[output withheld: this call ran with a secret")), "the model was told, in words, that the output is withheld");
  const before = leaked(0);
  check(before.length === 0, `no request carries a piece of the key or its base64 (${before.slice(0, 3).join(", ")})`);
  await page.screenshot({ path: join("e2e/out", "secret-withheld.png") });

  // Released: the next request carries it.
  const sent = bodies.length;
  await held.getByRole("button", { name: "Release to the model" }).click();
  await page.getByTestId("withheld-released").waitFor({ timeout: 10000 });
  await box.fill("thanks");
  await box.press("Enter");
  await page.getByText("Noted.").waitFor({ timeout: 15000 });
  check(bodies.slice(sent).some((b) => b.includes(ENCODED.trim())), "after Release, the model gets the output");
  check(!bodies.some((b) => b.includes(KEY)), "the key itself never leaves");
});
