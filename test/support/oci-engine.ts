import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { loadConfig } from '../../src/config.js';
import { OciEngine } from '../../src/core/sandbox/oci/oci-engine.js';

/** Shared by the oci-driver test files, so the runner images are unpacked once. */
const OCI_ROOTFS_DIR = path.join(os.tmpdir(), 'code-runner-oci-rootfs');
const LIMITS = { memoryMb: 128, cpus: 1, pids: 64, tmpfsMb: 16, nofile: 256, fsizeMb: 8 };

/**
 * An oci-driver engine of its own (crun, small limits, the shared unpacked images) for a test file
 * that drives sandboxes directly, without a service; its periodic sweep stays out of the way.
 */
export function startTestOciEngine(instance: string, dataDir: string): Promise<OciEngine> {
  const config = loadConfig();
  return OciEngine.start(new Docker({ socketPath: config.DOCKER_SOCKET }), {
    images: { python: config.PYTHON_IMAGE, node: config.NODE_IMAGE },
    instance,
    limits: LIMITS,
    ociRuntime: 'crun',
    dataDir,
    rootfsDir: OCI_ROOTFS_DIR,
    sweepIntervalMs: 600_000,
  });
}
