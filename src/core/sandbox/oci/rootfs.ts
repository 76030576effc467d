import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { SandboxError } from '../../../web/errors.js';
import { stageError } from '../sandbox.js';
import type { ImageRuntimeConfig } from './spec.js';

/** A runner image unpacked once into a directory that every sandbox of it uses, read-only, as its root. */
export interface PreparedImage {
  image: string;
  /** The image id (sha256:…); the directory is named after it. */
  id: string;
  dir: string;
  config: ImageRuntimeConfig;
}

interface Metadata {
  image: string;
  id: string;
  config: ImageRuntimeConfig;
}

/** An unfinished unpacking older than this belongs to a process that died: it is removed. */
const STALE_PARTIAL_MS = 60 * 60_000;

function untar(stream: Readable, dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const tar = spawn('tar', ['-x', '--numeric-owner', '-C', dir], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    tar.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    tar.on('error', reject);
    stream.on('error', (error) => {
      tar.kill('SIGKILL');
      reject(error);
    });
    tar.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tar exited with ${code}: ${stderr.trim()}`))));
    stream.pipe(tar.stdin);
  });
}

/** `docker create` + `docker export` of the image into `dir` (a container that never starts). */
async function exportImage(docker: Docker, image: string, dir: string, labels: Record<string, string>): Promise<void> {
  let container: Docker.Container;
  try {
    container = await docker.createContainer({
      Image: image,
      Entrypoint: ['true'],
      Cmd: [],
      Labels: labels,
      NetworkDisabled: true,
      HostConfig: { NetworkMode: 'none', LogConfig: { Type: 'none', Config: {} } },
    });
  } catch (error) {
    throw stageError('create', error);
  }
  try {
    await untar((await container.export()) as unknown as Readable, dir);
  } finally {
    await container.remove({ force: true }).catch(() => undefined);
  }
}

function runtimeConfig(info: Docker.ImageInspectInfo): ImageRuntimeConfig {
  const config = info.Config;
  const entrypoint = config.Entrypoint;
  return {
    env: config.Env ?? [],
    workingDir: config.WorkingDir ?? '',
    entrypoint: Array.isArray(entrypoint) ? entrypoint : entrypoint ? [entrypoint] : [],
    cmd: config.Cmd ?? [],
  };
}

function parseMetadata(text: string): Partial<Metadata> | undefined {
  try {
    return JSON.parse(text) as Partial<Metadata>;
  } catch {
    return undefined;
  }
}

/** Removes other unpackings of the same image name (an image rebuilt since) and partial ones left by a crash. */
async function removeStale(base: string, image: string, keepId: string): Promise<void> {
  for (const entry of await readdir(base)) {
    const full = path.join(base, entry);
    if (entry.startsWith('.partial-')) {
      const age = Date.now() - (await stat(full).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > STALE_PARTIAL_MS) await rm(full, { recursive: true, force: true });
      continue;
    }
    if (!entry.endsWith('.json')) continue;
    const meta = parseMetadata(await readFile(full, 'utf8').catch(() => ''));
    if (meta?.image !== image || meta.id === keepId) continue;
    await rm(full.slice(0, -'.json'.length), { recursive: true, force: true });
    await rm(full, { force: true });
  }
}

/**
 * The root filesystem of `image` under `base`, keyed by the image id: unpacked (once) when no
 * directory for that id exists yet, which is also what happens after the image was rebuilt.
 * Concurrent preparations of the same image (two services sharing `base`) each unpack into a
 * partial directory and the first rename wins.
 */
export async function prepareRootfs(docker: Docker, image: string, base: string, labels: Record<string, string>): Promise<PreparedImage> {
  let info: Docker.ImageInspectInfo;
  try {
    info = await docker.getImage(image).inspect();
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 404) throw new SandboxError('image', `runner image missing: ${image}`, { cause: error });
    throw stageError('engine', error);
  }
  const id = info.Id;
  const dir = path.join(base, id.replace(/^sha256:/, ''));
  const config = runtimeConfig(info);
  await mkdir(base, { recursive: true });
  if (!existsSync(dir)) {
    const partial = path.join(base, `.partial-${randomBytes(6).toString('hex')}`);
    await mkdir(partial, { mode: 0o755 });
    try {
      await exportImage(docker, image, partial, labels);
      await rename(partial, dir).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST' && error.code !== 'ENOTEMPTY') throw error;
      });
    } finally {
      await rm(partial, { recursive: true, force: true });
    }
  }
  const metadata: Metadata = { image, id, config };
  // written whole or not at all: another service sharing `base` may be reading it
  const temporary = path.join(base, `.partial-${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(temporary, JSON.stringify(metadata));
  await rename(temporary, `${dir}.json`);
  await removeStale(base, image, id);
  return { image, id, dir, config };
}
