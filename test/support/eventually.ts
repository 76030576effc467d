import { setTimeout as sleep } from 'node:timers/promises';

/** Waits until `check` holds (polling every `everyMs`), up to `timeoutMs`; returns whether it did. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5_000, everyMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}
