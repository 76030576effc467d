// Attacks that try to outlive their execution: a detached background process (and a
// double-forked daemon) that keeps writing a file and printing. When the answer is back, the
// process must be gone from the host, and the next execution must see neither it nor its file.
import { describe, expect, it } from 'vitest';
import { attack, marker, RUNTIMES, useAttackService, watchHostProcesses } from './support.js';
import { hostProcessesWith } from '../support/host-processes.js';
import { eventually } from '../support/eventually.js';

const PYTHON_PLANT = `import os, subprocess, sys, time
LOOP = "import sys, time\\nwhile True:\\n    open('/tmp/' + sys.argv[1], 'a').write('x')\\n    print(sys.argv[1], flush=True)\\n    time.sleep(0.1)\\n"
def f(tag):
    subprocess.Popen([sys.executable, "-c", LOOP, tag], start_new_session=True, stdin=subprocess.DEVNULL)
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", LOOP, tag + "-daemon"])
        os._exit(0)
    time.sleep(1.5)
    return sorted(os.listdir("/tmp"))
`;

const JS_PLANT = `function f(tag) {
  const cp = require('child_process');
  const loop = "setInterval(() => { require('fs').appendFileSync('/tmp/' + process.argv[1], 'x'); console.log(process.argv[1]); }, 100)";
  cp.spawn(process.execPath, ['-e', loop, tag], { detached: true, stdio: ['ignore', 'inherit', 'inherit'] }).unref();
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
  return require('fs').readdirSync('/tmp').sort();
}
`;

/** What the next execution sees: its processes and its /tmp. */
const PYTHON_LOOK = `import os
def f(tag):
    procs = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                procs[pid] = open("/proc/%s/cmdline" % pid, "rb").read().replace(b"\\0", b" ").decode().strip()
            except OSError:
                pass
    return {"procs": procs, "tmp": os.listdir("/tmp"), "tagged": [p for p, c in procs.items() if tag in c]}
`;

const JS_LOOK = `function f(tag) {
  const fs = require('fs');
  const procs = {};
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p))) {
    try { procs[pid] = fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0').join(' ').trim(); } catch {}
  }
  return { procs, tmp: fs.readdirSync('/tmp'), tagged: Object.keys(procs).filter((p) => procs[p].includes(tag)) };
}
`;

describe.each(RUNTIMES)('persistence attacks under %s', (runtime) => {
  const ctx = useAttackService(runtime);

  for (const [language, plant, look] of [
    ['python', PYTHON_PLANT, PYTHON_LOOK],
    ['javascript', JS_PLANT, JS_LOOK],
  ] as const) {
    it.concurrent(`${language}: a detached background process does not survive its execution`, async () => {
      const tag = marker('sleeper');
      const planting = attack(ctx, language, plant, { testCases: [{ args: { tag }, expected: null }] });
      const seenOnHost = await watchHostProcesses(tag, planting);
      const { results } = await planting;
      expect(results[0].error).toBeNull();
      // it did run: its file was in the sandbox's /tmp and its output reached this execution
      expect(results[0].actual).toContain(tag);
      expect(results[0].stdout).toContain(tag);
      if (runtime !== 'runsc') expect(seenOnHost, 'the sleeper ran as a (namespaced) host process').toBe(true);
      expect(await eventually(() => hostProcessesWith(tag).length === 0, 5_000), 'the sleeper is gone from the host').toBe(true);

      const next = await attack(ctx, language, look, { testCases: [{ args: { tag }, expected: null }] });
      expect(next.results[0].error).toBeNull();
      const seen = next.results[0].actual as { procs: Record<string, string>; tmp: string[]; tagged: string[] };
      expect(seen.tagged).toEqual([]);
      expect(seen.tmp).toEqual([]);
      // the next sandbox holds only its own harness (pid 1), whatever else runs on the engine
      expect(Object.keys(seen.procs)).toEqual(['1']);
      expect(seen.procs['1']).toMatch(/harness/);
      expect(next.results[0].stdout).not.toContain(tag);
    });
  }
});
