// SERVICE_NICE (src/cpu-priority.ts) on the real kernel: the service's session and its event loop's
// thread both get the nice. Run in a child of a session of its own (setsid), so that this test
// process's session, which the rest of the suite shares, keeps its weight.
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';

const PROBE = `
import os from 'node:os';
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { applyServiceNice } from './src/cpu-priority.ts';
const warnings = [];
applyServiceNice(-7, pino({ level: 'warn' }, { write: (line) => warnings.push(line) }));
const autogroup = readFileSync('/proc/self/autogroup', 'utf8').trim();
console.log(JSON.stringify({ thread: os.getPriority(), autogroup, warnings }));
`;

it('SERVICE_NICE sets the nice of the service\u2019s session and of its event loop\u2019s thread', () => {
  const child = spawnSync('setsid', ['node', '--import', 'tsx', '--input-type=module', '-e', PROBE], { encoding: 'utf8' });
  const said = `exit ${child.status}; stdout: ${child.stdout}; stderr: ${child.stderr}`;
  expect(child.status, said).toBe(0);
  const { thread, autogroup, warnings } = JSON.parse(child.stdout) as { thread: number; autogroup: string; warnings: string[] };
  expect(warnings, said).toEqual([]);
  expect(thread, said).toBe(-7);
  // "/autogroup-N nice -7" while the kernel's autogroups are on (Debian's default)
  expect(autogroup, said).toMatch(/ nice -7$/);
});
