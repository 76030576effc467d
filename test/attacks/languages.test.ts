// The languages endpoint as a container bomb (issue 13): it answers each runtime's version, which
// the runner reads from a probe container until a sandbox has reported it. Probes are containers
// like any other: many callers at once on a fresh service must not start more of them than
// SANDBOX_MAX_CONTAINERS allows, and every caller still gets the versions.
import { describe, expect, it } from 'vitest';
import { labelledContainers, RUNTIMES, sleep, useAttackService, withSlots } from './support.js';

const MAX_CONTAINERS = 2;
const CALLERS = 20;

interface LanguagesReply {
  data: Array<{ language: string; version: string | null }>;
}

describe.each(RUNTIMES)('languages endpoint under %s', (runtime) => {
  // no warm pool: nothing has reported a version before the callers come
  const ctx = useAttackService(runtime, { POOL_ENABLED: 'false', SANDBOX_MAX_CONTAINERS: String(MAX_CONTAINERS) });

  it(`${CALLERS} callers at once on a fresh service stay within ${MAX_CONTAINERS} containers`, async () => {
    await withSlots(MAX_CONTAINERS, async () => {
      let most = 0;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          // `crun list` fails while a container's state is half written: that sample is skipped
          const containers = await labelledContainers(ctx.service).catch(() => undefined);
          if (containers) most = Math.max(most, containers.length);
          await sleep(20);
        }
      })();
      const replies = await Promise.all(
        Array.from({ length: CALLERS }, async () => {
          const response = await fetch(`${ctx.service.url}/api/v1/code/languages`);
          return { status: response.status, body: (await response.json()) as LanguagesReply };
        }),
      );
      sampling = false;
      await sampler;
      for (const reply of replies) {
        expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        expect(reply.body.data.map((l) => [l.language, typeof l.version])).toEqual([
          ['python', 'string'],
          ['javascript', 'string'],
          ['typescript', 'string'],
        ]);
      }
      console.log(`languages: ${runtime} ${CALLERS} callers, at most ${most} containers at once (limit ${MAX_CONTAINERS})`);
      expect(most, 'containers alive at once while the callers waited').toBeLessThanOrEqual(MAX_CONTAINERS);
    });
  });
});
