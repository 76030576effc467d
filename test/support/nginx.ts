import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { freePort } from '../platform/support/servers.js';

const NGINX = '/usr/sbin/nginx';
const root = path.resolve(import.meta.dirname, '../..');

/** Whether something accepts connections on the loopback port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Fills in `${NAME}` as the official nginx image's envsubst does: only the names given, nginx's own `$vars` untouched. */
function fillIn(template: string, variables: Record<string, string>): string {
  return template.replace(/\$\{([A-Z_][A-Z0-9_]*)\}/g, (whole, name: string) => variables[name] ?? whole);
}

export interface Nginx {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  pid: number;
  /** Its error log so far (startup problems, upstream failures). */
  errorLog(): string;
  /** Its access log so far: one line per request, with each upstream tried, its status and connect time (`-`: never connected). */
  accessLog(): string;
  /** Stops it (fast shutdown), waits for the process to end and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Debian's nginx as a child process in the foreground, with its own prefix, temp folders and logs
 * in a temp folder, serving one template of deploy/nginx/templates/ (filled in with `variables`,
 * LISTEN set to a free loopback port) inside a minimal http {} like the official image's.
 */
export async function startNginx(template: string, variables: Record<string, string>): Promise<Nginx> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nginx-'));
  // As root, nginx's workers run as nobody: they write request bodies to the temp folders inside.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const site = fillIn(readFileSync(path.join(root, 'deploy/nginx/templates', template), 'utf8'), {
    ...variables,
    LISTEN: `127.0.0.1:${port}`,
  });
  writeFileSync(path.join(dir, 'site.conf'), site);
  const errorLogFile = path.join(dir, 'error.log');
  const accessLogFile = path.join(dir, 'access.log');
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${errorLogFile} info;`,
      'events { worker_connections 1024; }',
      'http {',
      `  log_format upstream '$remote_addr "$request" $status upstream=$upstream_addr upstream_status=$upstream_status connect=$upstream_connect_time';`,
      `  access_log ${accessLogFile} upstream;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${dir}/${kind}_temp;`),
      `  include ${dir}/site.conf;`,
      '}',
    ].join('\n'),
  );
  const output: string[] = [];
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', errorLogFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  const nginx: Nginx = {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    errorLog: () => read(errorLogFile),
    accessLog: () => read(accessLogFile),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + 10_000;
  while (!(await listening(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const log = `${output.join('')}${nginx.errorLog()}`;
      await nginx.stop();
      throw new Error(`nginx (${template}) did not start on port ${port}; its output and error log:\n${log}\nits site:\n${site}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return nginx;
}
