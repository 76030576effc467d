import { describe, expect, it } from 'vitest';
import { makeJob, runHarness } from './run-harness.js';

// The isolation flags the host uses (src/core/sandbox/container-spec.ts), as a docker run line.
const DOCKER_RUN = [
  'docker',
  'run',
  '-i',
  '--rm',
  '--network',
  'none',
  '--read-only',
  '--tmpfs',
  '/tmp',
  '--user',
  '10001:10001',
  '--cap-drop',
  'ALL',
  '--security-opt',
  'no-new-privileges',
];
const PYTHON_IMAGE = process.env.PYTHON_IMAGE ?? 'code-runner-python:latest';
const NODE_IMAGE = process.env.NODE_IMAGE ?? 'code-runner-node:latest';

describe('python runner image', () => {
  it('runs a job end to end as an unprivileged, offline, read-only container', async () => {
    const code = [
      'import os, socket',
      'print("loading")',
      'def f(x, big):',
      '    os.write(1, b"stray\\n")',
      '    print("uid", os.getuid())',
      '    try:',
      '        socket.create_connection(("1.1.1.1", 80), timeout=2)',
      '        net = "online"',
      '    except OSError:',
      '        net = "offline"',
      '    return [x * 2, big + 1, float("nan"), {3, 1, 2}, net, 3.0]',
    ].join('\n');
    const job = makeJob({ code, target: { names: ['f'] }, cases: [] });
    const line = JSON.stringify(job).replace(
      '"cases":[]',
      '"cases":[{"i":0,"args":[21,123456789012345678901234567890],"kwargs":{},"undef":[]}]',
    );
    const result = await runHarness([...DOCKER_RUN, PYTHON_IMAGE], line, { timeoutMs: 60_000 });
    expect(result.runtime).toMatch(/^Python 3\.\d+\.\d+$/);
    expect(result.frames.map((frame) => frame.t)).toEqual(['loaded', 'begin', 'result', 'done']);
    const frame = result.result(0)!;
    expect(frame.error).toBeNull();
    expect(frame.raw).toContain('"value":[42,123456789012345678901234567891,"NaN",[1,2,3],"offline",3.0]');
    expect(frame.stdout).toBe('loading\nuid 10001\n');
    expect(result.stray).toBe('stray\n');
    expect(result.exitCode).toBe(0);
  });
});

describe('node runner image', () => {
  it('runs a job end to end as an unprivileged, offline, read-only container', async () => {
    const code = [
      'const fs = require("fs");',
      'console.log("loading");',
      'function f(x, y = 5) {',
      '  fs.writeSync(1, "stray\\n");',
      '  console.log("uid", process.getuid());',
      '  let writable = true;',
      '  try { fs.writeFileSync("/opt/runner/x", "x"); } catch { writable = false; }',
      '  return [x * 2, y, 2n ** 70n, NaN, new Set([3, 1, 2]), writable];',
      '}',
    ].join('\n');
    const job = makeJob({ code, target: { names: ['f'] }, cases: [{ i: 0, args: [21, null], kwargs: {}, undef: [1] }] }, 'solution.js');
    const result = await runHarness([...DOCKER_RUN, NODE_IMAGE], job, { timeoutMs: 60_000 });
    expect(result.runtime).toMatch(/^Node \d+\.\d+\.\d+$/);
    expect(result.frames.map((frame) => frame.t)).toEqual(['loaded', 'begin', 'result', 'done']);
    const frame = result.result(0)!;
    expect(frame.error).toBeNull();
    expect(frame.raw).toContain(`"value":[42,5,${2n ** 70n},"NaN",[1,2,3],false]`);
    expect(frame.stdout).toBe('loading\nuid 10001\n');
    expect(result.stray).toBe('stray\n');
    expect(result.exitCode).toBe(0);
  });

  // docker/node.Dockerfile builds the blob under the heap limit the host sets for the default
  // sandbox memory (SANDBOX_MEMORY_MB 256 x 0.75); V8 refuses a blob under other flags.
  it.each([
    ['the default heap limit: from the startup snapshot', '--max-old-space-size=192', true],
    ['another heap limit: from source', '--max-old-space-size=100', false],
  ])('starts under %s, and the code under test sees the same process', async (_name, nodeOptions, fromSnapshot) => {
    const code =
      "function f() { return [process.execArgv.includes('--snapshot-blob'), process.argv.slice(1), typeof require('vm').Script]; }";
    const job = makeJob({ code, target: { names: ['f'] }, cases: [{ i: 0, args: [] }] }, 'solution.js');
    const run = [...DOCKER_RUN, '-e', `NODE_OPTIONS=${nodeOptions}`, NODE_IMAGE];
    const result = await runHarness(run, job, { timeoutMs: 60_000 });
    const frame = result.result(0);
    expect(frame?.raw, result.stderr).toContain(`"value":[${fromSnapshot},["/opt/runner/harness.cjs"],"function"]`);
    expect(result.exitCode).toBe(0);
  });
});
