import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

const checker = path.resolve(import.meta.dirname, '../../../shared/corpus/check.mjs');

/** Runs the HumanEval conformance checker against `baseUrl` and expects every positive to pass and every negative to fail. */
export async function expectConformance(baseUrl: string): Promise<void> {
  expect(existsSync(checker), `conformance checker expected at ${checker}`).toBe(true);
  const child = spawn(process.execPath, [checker, '--base', baseUrl, '--lang', 'all', '--concurrency', '6'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const summary = output.trim().split('\n').at(-1) ?? '';
  expect(summary).toMatch(/^942 passed, 0 failed$/);
  expect(code).toBe(0);
}
