// The oci driver's engine hands crun the seccomp program compiled once (run.oci.seccomp_bpf_data)
// in every bundle it writes, beside the profile itself, and crun starts the container with it. That
// the harness's containers then run in seccomp mode 2 is the attack suite's (privileges.test.ts,
// ATTACK_DRIVER=oci). Real crun and Docker (the images are unpacked from it); as root.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { connectDocker } from '../../src/core/sandbox/engine.js';
import { ociLayout, OciEngine } from '../../src/core/sandbox/oci/oci-engine.js';
import { runnerSettings } from '../../src/service.js';

const config = loadConfig({});
const settings = runnerSettings(config);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'code-runner-oci-engine-seccomp-'));
const instance = `test-seccomp-${randomBytes(3).toString('hex')}`;
const errors: Error[] = [];
let engine: OciEngine;

beforeAll(async () => {
  engine = await OciEngine.start(
    connectDocker(config.DOCKER_SOCKET),
    { images: settings.images, instance, limits: settings.limits, ociRuntime: 'crun', dataDir },
    (error) => errors.push(error),
  );
}, 120_000);

afterAll(async () => {
  await engine?.removeAll();
  rmSync(dataDir, { recursive: true, force: true });
});

it('writes the compiled program into every crun bundle, and crun runs the container with it', async () => {
  expect(errors.map((error) => error.message)).toEqual([]);
  const sandbox = await engine.startCommand('python', ['/bin/true']);
  try {
    const bundle = path.join(ociLayout(dataDir, instance).bundles, sandbox.id, 'config.json');
    const spec = JSON.parse(readFileSync(bundle, 'utf8')) as { annotations?: Record<string, string>; linux: { seccomp?: unknown } };
    const program = Buffer.from(spec.annotations?.['run.oci.seccomp_bpf_data'] ?? '', 'base64');
    // one 8-byte sock_filter per instruction; Docker's profile compiles to hundreds of them
    expect(program.length % 8, 'a whole number of BPF instructions').toBe(0);
    expect(program.length).toBeGreaterThan(800);
    expect(spec.linux.seccomp, 'the profile stays beside the program').toBeDefined();
    const exit = await sandbox.exited;
    expect(exit.statusCode).toBe(0);
  } finally {
    await sandbox.dispose();
  }
});
