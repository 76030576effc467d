// The oci driver's root filesystems, unpacked ahead by `npm run images` (docker/build-images.sh runs
// src/core/sandbox/oci/unpack-images.ts): into the directory the driver looks in, keyed by the image
// id, by the driver's own code, and only once. Not an attack on a sandbox: what every oci sandbox of
// the suite starts from.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { ociLayout } from '../../src/core/sandbox/oci/oci-engine.js';
import { unpackImages } from '../../src/core/sandbox/oci/unpack-images.js';

const IMAGE = process.env.PYTHON_IMAGE ?? 'code-runner-python:latest';
const docker = new Docker({ socketPath: process.env.DOCKER_SOCKET ?? '/var/run/docker.sock' });
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'code-runner-unpack-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('unpacking runner images for the oci driver', () => {
  it('the command unpacks an image where the driver looks, keyed by its id, and a second run reuses it', async () => {
    const id = (await docker.getImage(IMAGE).inspect()).Id;
    const { rootfs } = ociLayout(dataDir, 'any-instance');
    const dir = path.join(rootfs, id.replace(/^sha256:/, ''));

    const started = performance.now();
    const run = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/core/sandbox/oci/unpack-images.ts', '--data-dir', dataDir, IMAGE],
      { timeout: 120_000 },
    ).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`unpack-images failed: ${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    });
    const coldMs = Math.round(performance.now() - started);
    expect(run.stdout, run.stderr).toContain(`${IMAGE}: ${dir}`);
    expect(existsSync(path.join(dir, 'usr/bin/python3')), `${dir} holds the image's files`).toBe(true);
    expect(JSON.parse(readFileSync(`${dir}.json`, 'utf8'))).toMatchObject({ image: IMAGE, id });
    const unpackedAt = statSync(dir).ctimeMs;

    const again = performance.now();
    const [prepared] = await unpackImages(docker, [IMAGE], rootfs);
    const warmMs = Math.round(performance.now() - again);
    console.log(
      `unpack-images: ${IMAGE} unpacked in ${coldMs} ms (the command), found again in ${warmMs} ms; load ${os.loadavg()[0].toFixed(2)}`,
    );
    expect(prepared).toMatchObject({ image: IMAGE, id, dir });
    expect(statSync(dir).ctimeMs, 'the second run did not unpack again').toBe(unpackedAt);
  });
});
