import { afterEach, beforeAll, expect, it } from 'vitest';
import { buildServiceOnce } from '../support/build-once.js';
import { startNginx, type Nginx } from '../support/nginx.js';
import { ServiceProcess, watchServiceProcesses } from '../support/service-process.js';
import { requestFrom, type Answer } from './source-address.js';

/*
 * The anonymous per-IP rate limit behind a real nginx (deploy/nginx/templates/api.conf.template):
 * with TRUST_PROXY naming the proxy, each client has its own bucket and a forged X-Forwarded-For
 * changes nothing; the same header from a peer that is not a trusted proxy is ignored; without
 * TRUST_PROXY every client behind the proxy shares the proxy's bucket.
 * Clients are told apart by their loopback source address (127.0.0.2, .3, .4).
 */

const LIMIT = 3;
// A route anyone may call, and one no other helper changes: the platform's OpenAPI document.
const ANONYMOUS = '/api/v1/openapi.json';
let nginx: Nginx | undefined;

beforeAll(async () => {
  await buildServiceOnce();
}, 180_000);
watchServiceProcesses();
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail' && nginx)
    console.error(`--- nginx error log ---\n${nginx.errorLog()}\n--- access log ---\n${nginx.accessLog()}`);
  await nginx?.stop();
  nginx = undefined;
});

async function fleetOfOne(trustProxy: string): Promise<{ node: ServiceProcess; front: Nginx }> {
  const node = await ServiceProcess.start('api', {
    RATE_LIMIT_ANONYMOUS: String(LIMIT),
    RATE_LIMIT_WINDOW_SECONDS: '600',
    TRUST_PROXY: trustProxy,
  });
  nginx = await startNginx('api.conf.template', { API_SERVERS: `server ${new URL(node.url).host};`, MAX_BODY_BYTES: '1048576' });
  return { node, front: nginx };
}

const statuses = (answers: Answer[]) => answers.map((answer) => answer.status);

/** `count` anonymous calls, one after the other, from the address, each with a different forged X-Forwarded-For. */
async function calls(from: string, base: string, count: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i += 1)
    answers.push(await requestFrom(from, `${base}${ANONYMOUS}`, { headers: { 'x-forwarded-for': `203.0.113.${i + 1}` } }));
  return answers;
}

const allowedThenLimited = [...Array<number>(LIMIT).fill(200), 429];

it('TRUST_PROXY names nginx: each client behind it has its own bucket; forged X-Forwarded-For from clients or untrusted peers counts for nothing', async () => {
  const { node, front } = await fleetOfOne('127.0.0.1');
  // Through the proxy: the client's own address counts, whatever it forges to the left.
  const first = await calls('127.0.0.2', front.url, LIMIT + 1);
  expect(statuses(first), first.map((answer) => answer.body).join('\n')).toEqual(allowedThenLimited);
  expect(first[0].headers['x-ratelimit-limit']).toBe(String(LIMIT));
  expect(first.map((answer) => answer.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
  // Another client behind the same proxy has a bucket of its own.
  expect(statuses(await calls('127.0.0.3', front.url, LIMIT + 1))).toEqual(allowedThenLimited);
  // Straight to the node from a peer that is not a trusted proxy: its X-Forwarded-For is ignored, the peer counts.
  expect(statuses(await calls('127.0.0.4', node.url, LIMIT + 1))).toEqual(allowedThenLimited);
  // The forged addresses got no bucket of their own: 127.0.0.4 is still limited through the proxy too.
  expect(statuses(await calls('127.0.0.4', front.url, 1))).toEqual([429]);
  expect(front.accessLog()).toMatch(/^127\.0\.0\.2 /m);
});

it('without TRUST_PROXY (the default) X-Forwarded-For is never believed: every client behind nginx shares its bucket', async () => {
  const { front } = await fleetOfOne('');
  const answers = [...(await calls('127.0.0.2', front.url, 2)), ...(await calls('127.0.0.3', front.url, 2))];
  expect(statuses(answers), answers.map((answer) => answer.body).join('\n')).toEqual(allowedThenLimited);
});
