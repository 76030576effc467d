import { readdirSync, readFileSync } from 'node:fs';

/** Host processes whose command line contains `text` (a sandbox process under runc is one; a runtime process names its state directory). */
export function hostProcessesWith(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(text)) found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}
