import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, signIn, startDashboard, type Dashboard } from './support/browser.js';
import { startReceiver } from './support/receiver.js';

/**
 * Cross-site request forgery against the cookie session (src/platform/auth/csrf.ts): a state-changing
 * request that rides on the cookie must come from the service's own origin; keys are not affected.
 * The browser case uses a page of another origin on the same site (another port of 127.0.0.1), where
 * SameSite=Lax still sends the cookie, so only the Origin check stands in the way.
 */

let dashboard: Dashboard;
let cookie: string;
let key: string;

async function send(
  method: string,
  route: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${dashboard.url}${route}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

const createKey = (headers: Record<string, string>) =>
  send(
    'POST',
    `/api/v1/api-keys?accountSlug=${dashboard.workspace}`,
    { cookie, ...headers },
    { name: 'csrf probe', scopes: ['usage:read'] },
  );

async function keyCount(): Promise<number> {
  const answer = await send('GET', `/api/v1/api-keys?accountSlug=${dashboard.workspace}`, { cookie });
  return (JSON.parse(answer.text) as { meta: { total: number } }).meta.total;
}

beforeAll(async () => {
  // Loopback is a trusted proxy here, so the X-Forwarded-* cases can be sent straight from the test.
  dashboard = await startDashboard({ TRUST_PROXY: '127.0.0.1' });
  const login = await fetch(`${dashboard.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: dashboard.email, password: dashboard.password }),
  });
  cookie = login.headers
    .getSetCookie()
    .find((value) => value.startsWith('session='))!
    .split(';')[0];
  expect(login.headers.getSetCookie().join()).toMatch(/HttpOnly/i);
  expect(login.headers.getSetCookie().join()).toMatch(/SameSite=Lax/i);
  key = (await dashboard.admin({ command: 'key.create', workspace: dashboard.workspace, scopes: 'all' })).split('\n').at(-1)!;
}, 120_000);

afterAll(async () => {
  await dashboard?.close();
});

describe('state-changing requests with the session cookie', () => {
  it('are refused without an Origin or Referer', async () => {
    const answer = await createKey({});
    expect(answer.status, answer.text).toBe(403);
    expect(JSON.parse(answer.text).error).toMatch(/Origin or Referer/);
  });

  it('are refused from another origin, a null origin, or another scheme', async () => {
    for (const origin of [
      'https://evil.example',
      'null',
      dashboard.url.replace('127.0.0.1', 'localhost'),
      dashboard.url.replace('http:', 'https:'),
    ]) {
      const answer = await createKey({ origin });
      expect(answer.status, `${origin}: ${answer.text}`).toBe(403);
    }
    const byReferer = await createKey({ referer: 'https://evil.example/page' });
    expect(byReferer.status, byReferer.text).toBe(403);
    const revoke = await send('DELETE', `/api/v1/api-keys/7c9e6679-7425-40de-944b-e07fc1f90ae7?accountSlug=${dashboard.workspace}`, {
      cookie,
      origin: 'https://evil.example',
    });
    expect(revoke.status, revoke.text).toBe(403);
    expect(await keyCount()).toBe(1);
  });

  it('pass from the service’s own origin, by Origin or by Referer', async () => {
    expect((await createKey({ origin: dashboard.url })).status).toBe(201);
    expect((await createKey({ referer: `${dashboard.url}/dashboard` })).status).toBe(201);
    expect(await keyCount()).toBe(3);
  });

  it('behind a trusted proxy, compare with the origin the proxy was asked for', async () => {
    const proxied = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'dash.example.com' };
    expect((await createKey({ ...proxied, origin: 'https://dash.example.com' })).status).toBe(201);
    expect((await createKey({ ...proxied, origin: 'http://dash.example.com' })).status).toBe(403);
  });

  it('reads are not affected, nor are requests with an API key', async () => {
    expect((await send('GET', `/api/v1/usage?accountSlug=${dashboard.workspace}`, { cookie, origin: 'https://evil.example' })).status).toBe(
      200,
    );
    const role = await send(
      'POST',
      '/api/v1/roles',
      { 'x-api-key': key, origin: 'https://evil.example' },
      {
        template_name: 'Probe',
        use_case: 'hiring',
        description: 'Probes the origin check.',
        objective: 'None.',
      },
    );
    expect(role.status, role.text).toBe(201);
  });
});

describe('a forged request from a page of another origin in a real browser', () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let page: Page;
  let evil: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    browser = await openBrowser();
    page = browser.page;
    await signIn(page, dashboard.url, dashboard.email, dashboard.password);
    const target = `${dashboard.url}/api/v1/api-keys?accountSlug=${dashboard.workspace}`;
    // A classic CSRF form: text/plain so that the body reads as JSON, posted on load.
    evil = await startReceiver({
      html: `<!doctype html><form id="f" method="POST" action="${target}" enctype="text/plain">
<input name='{"name":"forged","scopes":"all","x":"' value='"}'></form><script>document.getElementById('f').submit()</script>`,
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await evil?.close();
  });

  it('is answered 403 and creates nothing, though the browser sent the cookie', async () => {
    const before = await keyCount();
    const forged = page.waitForRequest((request) => request.method() === 'POST' && request.url().includes('/api/v1/api-keys'));
    const answer = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().includes('/api/v1/api-keys'),
    );
    await page.goto(evil.url);
    const request = await forged;
    const headers = await request.allHeaders();
    expect(headers.cookie, 'SameSite=Lax sends the cookie to the same site').toMatch(/session=/);
    expect(headers.origin).toBe(evil.url);
    const response = await answer;
    expect(response.status(), await response.text()).toBe(403);
    expect(await keyCount()).toBe(before);
  });
});
