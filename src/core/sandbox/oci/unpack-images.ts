// Unpacks runner images for the oci driver ahead of its first start (docker/build-images.sh runs
// it after building them):
//   node --import tsx src/core/sandbox/oci/unpack-images.ts --data-dir DIR [--rootfs-dir DIR] [--docker-socket PATH] IMAGE...
// The directories are the ones OciEngine.start looks for (ociLayout, keyed by image id), made by the
// same code (prepareRootfs), so a service started afterwards finds them and unpacks nothing.
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import Docker from 'dockerode';
import { SANDBOX_LABEL } from '../container-spec.js';
import { ociLayout } from './oci-engine.js';
import { prepareRootfs, type PreparedImage } from './rootfs.js';

/** The label of the short-lived export containers this makes (removed as soon as each is read). */
const UNPACK_INSTANCE = 'unpack-images';

/** Unpacks each of `images` into `rootfsDir` unless its image id is there already. */
export async function unpackImages(docker: Docker, images: string[], rootfsDir: string): Promise<PreparedImage[]> {
  return Promise.all(images.map((image) => prepareRootfs(docker, image, rootfsDir, { [SANDBOX_LABEL]: UNPACK_INSTANCE })));
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      'rootfs-dir': { type: 'string' },
      'docker-socket': { type: 'string', default: '/var/run/docker.sock' },
    },
    allowPositionals: true,
    strict: true,
  });
  const dataDir = values['data-dir'];
  if (!dataDir || positionals.length === 0)
    throw new Error('usage: unpack-images --data-dir DIR [--rootfs-dir DIR] [--docker-socket PATH] IMAGE...');
  const { rootfs } = ociLayout(dataDir, UNPACK_INSTANCE, values['rootfs-dir']);
  const started = performance.now();
  const prepared = await unpackImages(new Docker({ socketPath: values['docker-socket'] }), positionals, rootfs);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  for (const { image, dir } of prepared) process.stdout.write(`${image}: ${dir}\n`);
  process.stdout.write(`ready in ${seconds} s\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`unpack-images: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
