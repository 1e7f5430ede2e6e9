/**
 * A mocha reporter for `npm run test:times`: mocha's spec output, then how long each test file took
 * (from its first hook or test starting to its last one ending, hooks included), slowest first, with
 * its number of tests. Files run one after another here (a parallel run reports its events only when
 * each file is done, so its times would mean nothing). FILE_TIMES_OUT names a file to write the
 * table to as well.
 */
const fs = require("node:fs");
const path = require("node:path");
const Mocha = require("mocha");

const { EVENT_HOOK_BEGIN, EVENT_HOOK_END, EVENT_TEST_BEGIN, EVENT_TEST_END, EVENT_RUN_END } = Mocha.Runner.constants;

class FileTimes extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    /** By file: when its first hook or test began, when its last one ended, its tests. */
    const spans = new Map();
    const fileOf = (runnable) => {
      let s = runnable;
      while (s && !s.file) s = s.parent;
      return s && s.file;
    };
    const mark = (runnable, isTestEnd) => {
      const file = fileOf(runnable);
      if (!file) return;
      const now = Date.now();
      const span = spans.get(file) ?? { first: now, last: now, tests: 0 };
      span.last = now;
      if (isTestEnd) span.tests++;
      spans.set(file, span);
    };
    for (const event of [EVENT_HOOK_BEGIN, EVENT_HOOK_END, EVENT_TEST_BEGIN]) runner.on(event, (r) => mark(r, false));
    runner.on(EVENT_TEST_END, (r) => mark(r, true));
    runner.once(EVENT_RUN_END, () => {
      const rows = [...spans]
        .map(([file, s]) => ({ file: path.relative(process.cwd(), file), seconds: (s.last - s.first) / 1000, tests: s.tests }))
        .sort((a, b) => b.seconds - a.seconds);
      const total = rows.reduce((sum, r) => sum + r.seconds, 0);
      const lines = [
        "seconds  tests  file",
        ...rows.map((r) => `${r.seconds.toFixed(1).padStart(7)}  ${String(r.tests).padStart(5)}  ${r.file}`),
        `${total.toFixed(1).padStart(7)}  ${String(rows.reduce((n, r) => n + r.tests, 0)).padStart(5)}  (all files)`,
      ].join("\n");
      console.log(`\nTime by file\n\n${lines}`);
      if (process.env.FILE_TIMES_OUT) fs.writeFileSync(process.env.FILE_TIMES_OUT, `${lines}\n`);
    });
  }
}

module.exports = FileTimes;
