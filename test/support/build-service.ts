import { execFileSync } from 'node:child_process';

/** Compiles the service to dist/, as `npm start` runs it: plain node, no TypeScript loader in the process. */
export function buildService(): void {
  execFileSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
}
