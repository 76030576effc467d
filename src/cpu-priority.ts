import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import type { Logger } from 'pino';

const AUTOGROUPS = '/proc/sys/kernel/sched_autogroup_enabled';

/**
 * Gives the service precedence for the CPU over the sandboxes and the engine beside it (SERVICE_NICE).
 * On two cores a sandbox writing a flood of results, the engine copying it and a gVisor sentry kept
 * the event loop ready to run but waiting 100-200 ms for a core (docs/security.md, "CPU precedence").
 * With the kernel's autogroups on, a session's processes are weighed as one, whatever each one's
 * nice, so the session's own nice is the one that counts; otherwise the process's. Sandboxes sit in
 * cgroups of their own, which neither setting reaches. Lowering a nice needs CAP_SYS_NICE: without
 * it the service runs as before and says so.
 */
export function applyServiceNice(nice: number, logger: Logger): void {
  if (nice === 0) return;
  try {
    if (readFileSync(AUTOGROUPS, 'utf8').trim() === '1') writeFileSync('/proc/self/autogroup', String(nice));
    else os.setPriority(nice);
  } catch (error) {
    logger.warn({ err: error }, `SERVICE_NICE=${nice} not applied; the service competes for the CPU with its sandboxes as an equal`);
  }
}
