// Attacks on storage: filling the /tmp tmpfs, writing one huge file, filling /dev/shm, and writing
// where nothing is writable. What a sandbox writes lives in memory and dies with the container.
import { describe, expect, it } from 'vitest';
import { attack, attackBeside, RUNTIMES, useAttackService } from './support.js';

const MB = 1024 * 1024;

describe.each(RUNTIMES)('storage attacks under %s', (runtime) => {
  const ctx = useAttackService(runtime);

  it.concurrent('python: filling /tmp stops at the 64 MB tmpfs (ENOSPC)', async () => {
    const code =
      'import errno\ndef f(x):\n    chunk = b"a" * (1 << 20)\n    written = 0\n    try:\n        for i in range(1000):\n            with open("/tmp/fill-%d" % i, "wb") as fh:\n                for _ in range(8):\n                    fh.write(chunk)\n                    fh.flush()\n                    written += len(chunk)\n    except OSError as e:\n        return [written, errno.errorcode.get(e.errno)]\n    return [written, None]\n';
    // beside a /healthz prober and a victim execution: this file's representative (support.ts, attackBeside)
    const { results } = await attackBeside(ctx, 'python', code);
    expect(results[0].error).toBeNull();
    const [written, code_] = results[0].actual as [number, string];
    expect(code_).toBe('ENOSPC');
    expect(written).toBeLessThanOrEqual(64 * MB);
    expect(written).toBeGreaterThanOrEqual(60 * MB);
  });

  it.concurrent('javascript: filling /tmp stops at the 64 MB tmpfs (ENOSPC)', async () => {
    const code =
      "function f(x) {\n  const fs = require('fs');\n  const chunk = Buffer.alloc(1 << 20, 97);\n  let written = 0;\n  try {\n    for (let i = 0; i < 1000; i++) {\n      const fd = fs.openSync('/tmp/fill-' + i, 'w');\n      try { for (let j = 0; j < 8; j++) written += fs.writeSync(fd, chunk); } finally { fs.closeSync(fd); }\n    }\n  } catch (e) { return [written, e.code]; }\n  return [written, null];\n}\n";
    const { results } = await attack(ctx, 'javascript', code);
    expect(results[0].error).toBeNull();
    const [written, code_] = results[0].actual as [number, string];
    expect(code_).toBe('ENOSPC');
    expect(written).toBeLessThanOrEqual(64 * MB);
  });

  it.concurrent('python: one file stops at the 32 MB file-size limit (EFBIG)', async () => {
    const code =
      'import errno\ndef f(x):\n    chunk = b"a" * (1 << 20)\n    written = 0\n    try:\n        with open("/tmp/big", "wb", buffering=0) as fh:\n            while True:\n                written += fh.write(chunk)\n    except OSError as e:\n        return [written, errno.errorcode.get(e.errno)]\n';
    const { results } = await attack(ctx, 'python', code);
    expect(results[0].actual).toEqual([32 * MB, 'EFBIG']);
  });

  it.concurrent('javascript: one file stops at the 32 MB file-size limit (EFBIG)', async () => {
    const code =
      "function f(x) {\n  const fs = require('fs');\n  const fd = fs.openSync('/tmp/big', 'w');\n  const chunk = Buffer.alloc(1 << 20, 97);\n  let written = 0;\n  try { for (;;) written += fs.writeSync(fd, chunk); } catch (e) { return [written, e.code]; }\n}\n";
    const { results } = await attack(ctx, 'javascript', code);
    // Node does not ignore SIGXFSZ as Python does, but the harness is the namespace's init, which
    // the kernel does not kill with a default-action signal, so the write fails with EFBIG
    if (results[0].error === null) expect(results[0].actual).toEqual([32 * MB, 'EFBIG']);
    else expect(results[0].error).toMatch(/^the sandbox process exited/);
  });

  it.concurrent('python: filling /dev/shm is bounded and counted against the memory limit', async () => {
    const code =
      'import errno\ndef f(x):\n    chunk = b"a" * (1 << 20)\n    written = 0\n    try:\n        for i in range(1000):\n            with open("/dev/shm/fill-%d" % i, "wb") as fh:\n                for _ in range(8):\n                    fh.write(chunk)\n                    fh.flush()\n                    written += len(chunk)\n    except OSError as e:\n        return [written, errno.errorcode.get(e.errno)]\n    return [written, None]\n';
    const { results } = await attack(ctx, 'python', code);
    if (results[0].error === null) {
      const [written, code_] = results[0].actual as [number, string];
      expect(code_).toMatch(/^(ENOSPC|EFBIG|EROFS|EACCES)$/);
      expect(written).toBeLessThanOrEqual(64 * MB);
    } else {
      expect(results[0].error).toMatch(/^memory limit exceeded/);
    }
  });

  it.concurrent('python: what one execution writes to /tmp is gone for the next', async () => {
    const name = `/tmp/left-${Math.random().toString(36).slice(2)}`;
    const write = await attack(ctx, 'python', `def f(x):\n    open("${name}", "w").write("left behind")\n    return x\n`);
    expect(write.results[0]).toMatchObject({ passed: true, error: null });
    const read = await attack(ctx, 'python', `import os\ndef f(x):\n    return [os.path.exists("${name}"), sorted(os.listdir("/tmp"))]\n`);
    expect(read.results[0].actual).toEqual([false, []]);
  });
});
