// The installed package (`make dist-check`): /usr/bin/braid from the .deb,
// on a fresh home with no provider and no model of its own, in a window
// under Xvfb over WebDriver. It must start, find the starter model it
// ships (/usr/lib/Braid/models) and answer. Prints the release app's time
// from launch to first paint (through WebDriver, so an upper bound) and its
// idle memory with its WebKit processes, over RUNS launches (medians), for
// docs/PERFORMANCE.md. Screenshots: e2e/out/installed-*.png.
import { checker, tempDir } from "./lib.mjs";
import { appMemory, desktopApp, newConversation, sleep } from "./webdriver.mjs";

const RUNS = Number(process.env.RUNS ?? 5);
const { check, finish } = checker();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const paints = [];
const memory = [];
const hintJs = "return document.querySelector('.hint.built-in')?.textContent ?? ''";

for (let run = 1; run <= RUNS; run++) {
  const { app, openApp, stop, session } = desktopApp(tempDir("installed"), "installed");
  let s = null;
  try {
    await sleep(500);
    const t0 = Date.now();
    s = session(await openApp());
    const hint = await s.until("the first paint", hintJs, 30000);
    paints.push(Date.now() - t0);
    if (run === 1) {
      check(hint.includes("SmolLM2-135M-Instruct"), `the installed app finds the starter model it ships (${JSON.stringify(hint.slice(0, 80))})`);
      await s.shot("empty");
    }
    await sleep(5000); // idle
    memory.push(appMemory(app));
    if (run === 1) {
      await newConversation(s);
      await s.type("//textarea[@aria-label='Message']", "What is the capital of France?\uE007");
      await s.answered(1);
      const answer = await s.js("const a = document.querySelectorAll('.message.assistant .markdown'); return a.length ? a[a.length - 1].textContent : ''");
      check(answer.trim().length > 0, `the installed app answers with it (${JSON.stringify(answer.slice(0, 60))})`);
      await s.shot("answer");
    }
  } catch (e) {
    if (s) await s.shot("failure").catch(() => undefined);
    check(false, `installed app, run ${run}: ${e.message}`);
  } finally {
    if (s) await s.close().catch(() => undefined);
    stop();
  }
}
if (paints.length) {
  const mb = (f) => median(memory.map(f)).toFixed(0);
  console.log(`release app, ${paints.length} launches: first paint ${median(paints)} ms (median; ${Math.min(...paints)}–${Math.max(...paints)})`);
  console.log(`idle memory (median): app ${mb((m) => m.app.rss)} MB RSS / ${mb((m) => m.app.pss)} MB PSS; with its ${memory[0].children} WebKit processes ${mb((m) => m.rss)} MB RSS / ${mb((m) => m.pss)} MB PSS`);
}
finish();
