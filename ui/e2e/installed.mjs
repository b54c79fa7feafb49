// The installed package (`make dist-check`): /usr/bin/braid from the .deb,
// on a fresh home with no provider and no model of its own, in a window
// under Xvfb over WebDriver. It must start, find the starter model it
// ships (/usr/lib/Braid/models) and answer. Then it is started RUNS more
// times on that home, reopening the conversation, each time as its menu
// entry starts it (/usr/share/applications/Braid.desktop), and prints
// (medians, for docs/PERFORMANCE.md):
// - launch to first paint: from the app process's start (/proc) to the
//   frame that drew the conversation (the page's `braid:first-paint`
//   mark; the window stays hidden until then), one clock for both;
// - the same seen through WebDriver: from asking tauri-driver for a
//   session (it starts the app) to the conversation found on the page, an
//   upper bound that includes the driver's own start and its polling;
// - idle memory of the app with its WebKit processes, after 5 s (nobody
//   has written yet, so the built-in model stays on disk: checked).
// Screenshots: e2e/out/installed-*.png.
import { readFileSync } from "node:fs";
import { checker, tempDir } from "./lib.mjs";
import { appMappedFiles, appMemory, appStartedAt, desktopApp, newConversation, sleep } from "./webdriver.mjs";

const RUNS = Number(process.env.RUNS ?? 5);
// Started as the menu starts it: with the environment its desktop entry's
// `Exec=env NAME=value … braid` sets.
const entry = readFileSync("/usr/share/applications/Braid.desktop", "utf8");
const exec = /^Exec=(.*)$/m.exec(entry)?.[1] ?? "";
const menuEnv = Object.fromEntries([...exec.matchAll(/(?:^env |\s)([A-Z_]+)=(\S+)/g)].map((m) => [m[1], m[2]]));
const { check, finish } = checker();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const home = tempDir("installed");
const hintJs = "return document.querySelector('.hint.built-in')?.textContent ?? ''";
// The page's start (timeOrigin), then each step to its first screen and
// that screen painted, on the page's clock (ms since the epoch).
const STEPS = ["script", "settings", "listed", "snapshot", "ready", "first-paint"];
const paintedAt = `const at = (n) => performance.timeOrigin + (performance.getEntriesByName('braid:' + n)[0]?.startTime ?? NaN);
return performance.getEntriesByName('braid:first-paint')[0] ? [performance.timeOrigin, ...${JSON.stringify(STEPS)}.map(at)] : null`;

/** One launch on `home`: `body(s, app)` once it is up. */
async function launch(label, body) {
  const { app, openApp, stop, session } = desktopApp(home, "installed", menuEnv);
  let s = null;
  try {
    await sleep(500);
    const asked = Date.now();
    s = session(await openApp());
    await body(s, app, asked);
  } catch (e) {
    if (s) await s.shot(`failure-${label}`).catch(() => undefined);
    check(false, `installed app, ${label}: ${e.message}`);
  } finally {
    if (s) await s.close().catch(() => undefined);
    stop();
  }
}

await launch("first start", async (s, app) => {
  const hint = await s.until("the start page", hintJs, 30000);
  check(hint.includes("SmolLM2-135M-Instruct"), `the installed app finds the starter model it ships (${JSON.stringify(hint.slice(0, 80))})`);
  await s.shot("empty");
  await newConversation(s);
  await s.type("//textarea[@aria-label='Message']", "What is the capital of France?\uE007");
  await s.answered(1);
  check(appMappedFiles(app).some((f) => f.endsWith(".gguf")), "the model it answered with is in memory");
  const answer = await s.js("const a = document.querySelectorAll('.message.assistant .markdown'); return a.length ? a[a.length - 1].textContent : ''");
  check(answer.trim().length > 0, `the installed app answers with it (${JSON.stringify(answer.slice(0, 60))})`);
  await s.shot("answer");
});

check(menuEnv.OMP_THREAD_LIMIT === "1", `the desktop entry starts Braid with OCR's threads limited, so it never restarts itself (${exec})`);
const paints = [];
const starts = [];
const steps = STEPS.map(() => []);
const seen = [];
const memory = [];
for (let run = 1; run <= RUNS; run++) {
  await launch(`run ${run}`, async (s, app, asked) => {
    await s.until("the conversation reopened", "return document.querySelectorAll('.message.assistant').length > 0 || null", 30000);
    seen.push(Date.now() - asked);
    const [page, ...marks] = await s.until("the first-paint mark", paintedAt, 10000);
    const started = appStartedAt(app);
    paints.push(Math.round(marks[marks.length - 1] - started));
    starts.push(Math.round(page - started));
    marks.forEach((m, i) => steps[i].push(Math.round(m - started)));
    if (run === 1) await s.shot("reopened");
    await sleep(5000); // idle
    memory.push(appMemory(app));
    const models = appMappedFiles(app).filter((f) => f.endsWith(".gguf"));
    check(models.length === 0, `run ${run}: reopening a conversation leaves the built-in model on disk until someone writes (${models.join(", ") || "none in memory"})`);
  });
}
check(paints.length === RUNS && paints.every((p) => p > 0 && p < 30000), `every launch marked its first paint (${paints.join(", ")} ms)`);
if (paints.length) {
  const mb = (f) => median(memory.map(f)).toFixed(0);
  const range = (xs) => `median; ${Math.min(...xs)}–${Math.max(...xs)}`;
  console.log(`release app, ${paints.length} launches reopening a conversation: first paint ${median(paints)} ms after the process started (${range(paints)})`);
  const along = STEPS.map((name, i) => `${name} ${median(steps[i])}`).join(", ");
  console.log(`on the way (medians, ms after the process started): the page starts ${median(starts)}, ${along}`);
  console.log(`through WebDriver (session asked → conversation found): ${median(seen)} ms (${range(seen)})`);
  console.log(`idle memory (median): app ${mb((m) => m.app.rss)} MB RSS / ${mb((m) => m.app.pss)} MB PSS; with its ${memory[0].children} WebKit processes ${mb((m) => m.rss)} MB RSS / ${mb((m) => m.pss)} MB PSS`);
}
finish();
