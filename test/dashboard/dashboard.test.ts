import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, signIn, startDashboard, type Dashboard } from './support/browser.js';
import { startReceiver } from './support/receiver.js';

/**
 * The team dashboard (docs/dashboard.md) in real headless Chromium against the real service: sign in,
 * create a key and use it, see usage move, webhooks and their deliveries, the runner playground, revoke
 * the key and see the API refuse it; and the security cases (escaping, CSRF, CSP, workspaces).
 */

const SCREENSHOT = path.resolve('docs/images/dashboard-keys.png');
const HOSTILE = '<img src=x onerror=alert(1)>';

let dashboard: Dashboard;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const dialogs: string[] = [];
const consoleErrors: string[] = [];
const requests: Request[] = [];
let key = '';

/** A call of the API as a program makes it, with the key from the dashboard. */
async function withKey(method: string, route: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${dashboard.url}${route}`, {
    method,
    headers: {
      'x-api-key': key,
      accept: 'application/json, text/event-stream',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Loads the dashboard afresh at a page (a hash change alone would leave the last page's heading in place). */
async function open(hash: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${dashboard.url}/dashboard${hash}`);
  await page.locator('main h1').first().waitFor();
}

/** The text of the cells of a table's rows. */
async function rows(selector: string): Promise<string[][]> {
  return page
    .locator(`${selector} tbody tr`)
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
}

beforeAll(async () => {
  receiver = await startReceiver();
  dashboard = await startDashboard({ OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8', OUTBOX_POLL_MS: '50' });
  browser = await openBrowser();
  page = browser.page;
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('request', (request) => requests.push(request));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await receiver?.close();
});

describe('the dashboard, as a team member uses it', () => {
  it('serves one HTML shell with a strict Content-Security-Policy and hashed assets from its own origin', async () => {
    const shell = await fetch(`${dashboard.url}/dashboard`);
    expect(shell.status).toBe(200);
    expect(shell.headers.get('content-security-policy')).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
    );
    expect(shell.headers.get('x-content-type-options')).toBe('nosniff');
    expect(shell.headers.get('referrer-policy')).toBe('no-referrer');
    expect(shell.headers.get('cache-control')).toBe('no-cache');
    const html = await shell.text();
    expect(html).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>|\bstyle=|\bon[a-z]+=/i);
    const assets = [...html.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((match) => match[1]);
    expect(assets).toEqual([expect.stringMatching(/\.css$/), expect.stringMatching(/\.js$/)]);
    for (const asset of assets) {
      const answer = await fetch(`${dashboard.url}${asset}`);
      expect(answer.status, asset).toBe(200);
      expect(answer.headers.get('cache-control')).toContain('immutable');
    }
    expect((await fetch(`${dashboard.url}/dashboard/assets/main-NOTTHERE.js`)).status).toBe(404);
  });

  it('signs in with the existing cookie session', async () => {
    await page.goto(`${dashboard.url}/dashboard`);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByLabel('Email').fill(dashboard.email);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('invalid email or password');
    await signIn(page, dashboard.url, dashboard.email, dashboard.password);
    expect(new URL(page.url()).hash).toBe('#/keys');
    expect(await page.title()).toBe('API keys · Dashboard');
    expect(await page.locator('header').textContent()).toContain(dashboard.workspace);
  });

  it('creates a key with a scope picker, shows it once with a copy button, and never stores it', async () => {
    await page.getByLabel('Name').fill('ci pipeline');
    await expect
      .poll(() => page.locator('fieldset.scope-group legend').allTextContents())
      .toEqual(['sessions', 'participants', 'roles', 'rounds', 'interviewers', 'programs', 'webhooks', 'usage']);
    await page.getByLabel('All scopes').check();
    await page.getByLabel('sessions:delete').uncheck();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('you will not see it again').waitFor();
    key = await page.getByLabel('Your new API key').inputValue();
    expect(key).toMatch(/^svc_live_[A-Za-z0-9]{32,}$/);
    await expect.poll(() => rows('#key-list')).toHaveLength(1);
    const [row] = await rows('#key-list');
    expect(row[0]).toBe('ci pipeline');
    expect(row[1]).toBe(`svc_live_…${key.slice(-4)}`);
    expect(row[2]).toContain('usage:read');
    expect(row[2]).not.toContain('sessions:delete');

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    await page.setViewportSize({ width: 1200, height: 900 });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    // Not in the URL, not in storage, not in any request the page made except the answer that created it.
    expect(page.url()).not.toContain(key);
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
    expect(stored).not.toContain(key);
    expect(requests.filter((request) => request.url().includes(key) || (request.postData() ?? '').includes(key))).toEqual([]);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.content()).not.toContain(key);
    await page.reload();
    await page.locator('main h1').waitFor();
    expect(await page.content()).not.toContain(key);
  });

  it('the key works against the API, and the usage page moves', async () => {
    const usage = await withKey('GET', '/api/v1/usage');
    expect(usage.status, JSON.stringify(usage.body)).toBe(200);
    expect(usage.body.data).toMatchObject({ workspace: dashboard.workspace, plan: 'pro' });

    await open('#/usage');
    const before = await rows('main table:not(details table)');
    expect(before.find((cells) => cells[0].includes('mcp_code_executions'))?.[1]).toBe('0');

    const call = await withKey('POST', '/api/mcp', {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'execute_code',
        arguments: { language: 'python', code: 'def add(a, b):\n    return a + b\n', testCases: [{ args: { a: 1, b: 2 }, expected: 3 }] },
      },
    });
    expect(call.status, JSON.stringify(call.body)).toBe(200);
    expect(JSON.stringify(call.body)).toContain('1/1 passed');

    await page.reload();
    await page.locator('main h1').waitFor();
    const after = await rows('main table:not(details table)');
    expect(after.find((cells) => cells[0].includes('mcp_code_executions'))?.slice(1, 3)).toEqual(['1', '20000']);
    expect(after.find((cells) => cells[0].includes('mcp_problem_generations'))?.[1]).toBe('0');
    expect(await page.locator('dl.facts').textContent()).toContain('1200 requests per 60 s');
    const today = new Date().toISOString().slice(0, 10);
    const days = await page.locator('details table tbody tr').evaluateAll((trs) => trs.map((tr) => tr.textContent ?? ''));
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toBe(`${today}1`);
    expect(await page.locator('svg.chart rect.bar').count()).toBe(30);
    expect(await page.locator('svg.chart').getAttribute('aria-label')).toContain('1 executions in all');
  });

  it('adds a webhook endpoint, shows its secret once, and lists its deliveries with status and attempts', async () => {
    await open('#/webhooks');
    await page.getByLabel('URL').fill(`${receiver.url}/hook`);
    await page.getByLabel('Events').fill('role.created');
    await page.getByLabel('Description').fill(HOSTILE);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await page.getByLabel('Its signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await expect.poll(() => rows('main')).toHaveLength(1);
    expect((await rows('main'))[0][2]).toBe(HOSTILE);

    const role = await withKey('POST', '/api/v1/roles', {
      template_name: 'Backend engineer',
      use_case: 'hiring',
      description: 'Builds and runs our payment APIs.',
      objective: 'Decide whether to hire.',
    });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    await expect.poll(() => receiver.hits.length, { timeout: 10_000 }).toBe(1);

    await page.getByRole('link', { name: `${receiver.url}/hook` }).click();
    await page.getByRole('heading', { name: /Deliveries to/ }).waitFor();
    await expect
      .poll(async () => {
        await page.reload();
        await page.locator('main h1').waitFor();
        return (await rows('main'))[0]?.slice(0, 4);
      })
      .toEqual(['role.created', 'delivered', expect.stringMatching(/^1 attempt.*delivered \(HTTP 200\)/), 'HTTP 200']);
    expect(await page.content()).not.toContain(secret);
  });

  it('runs code in the playground through the same execute endpoint', async () => {
    await open('#/playground');
    await page.getByLabel('Language').selectOption('python');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByText('1 of 2 cases passed.').waitFor({ timeout: 30_000 });
    const results = await rows('#playground-results');
    expect(results.map((cells) => cells.slice(0, 2))).toEqual([
      ['1', 'passed'],
      ['2', 'failed'],
    ]);
    expect(results[1][4]).toBe('4');
    expect(requests.some((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/code/execute')).toBe(
      true,
    );
  });

  it('revokes a key after a confirmation, using the keyboard only, and the API refuses it at once', async () => {
    await open('#/keys');
    const [row] = await rows('#key-list');
    expect(row[4], 'the key was used a moment ago').not.toBe('never');
    const revoke = page.getByRole('button', { name: 'Revoke ci pipeline' });
    await revoke.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Revoke the key “ci pipeline”?' });
    await dialog.waitFor();
    // Focus starts on Cancel: Escape keeps the key.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await withKey('GET', '/api/v1/usage')).status).toBe(200);

    await revoke.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await rows('#key-list'))[0]?.[5]).toMatch(/^revoked /);
    const refused = await withKey('GET', '/api/v1/usage');
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('API key has been revoked');
  });

  it('renders a hostile key name as text', async () => {
    await page.getByLabel('Name').fill(HOSTILE);
    await page.getByLabel('usage:read').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('you will not see it again').waitFor();
    await expect.poll(async () => (await rows('#key-list')).map((cells) => cells[0])).toContain(HOSTILE);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.getByText(`Key “${HOSTILE}” created`).count()).toBe(1);
    expect(dialogs).toEqual([]);
  });

  it('switches workspaces with the switcher and shows nothing of the other one', async () => {
    await dashboard.admin({ command: 'workspace.create', slug: 'beta', plan: 'free' });
    await dashboard.admin({ command: 'member.add', workspace: 'beta', email: dashboard.email });
    await open('#/keys');
    await page.getByLabel('Workspace').selectOption('beta');
    await page.getByText('No API keys yet.').waitFor();
    expect(await page.locator('main').textContent()).not.toContain('ci pipeline');
    await open('#/usage');
    expect(await page.locator('dl.facts').textContent()).toContain('beta');
    await page.getByLabel('Workspace').selectOption(dashboard.workspace);
    await expect.poll(() => page.locator('dl.facts').textContent()).toContain(dashboard.workspace);
  });

  it('reads on a narrow screen without sideways scrolling', async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    for (const hash of ['#/keys', '#/usage', '#/webhooks', '#/playground']) {
      await open(hash);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), hash).toBeLessThanOrEqual(360);
    }
    await page.setViewportSize({ width: 1200, height: 900 });
  });

  it('labels every control', async () => {
    for (const hash of ['#/keys', '#/webhooks', '#/playground']) {
      await open(hash);
      const unlabelled = await page
        .locator('input, select, textarea')
        .evaluateAll((controls) =>
          controls
            .filter((control) => !(control as HTMLInputElement).labels?.length && !control.getAttribute('aria-label'))
            .map((control) => control.outerHTML),
        );
      expect(unlabelled, hash).toEqual([]);
    }
  });

  it('loaded nothing from another origin and broke no Content-Security-Policy rule', () => {
    expect(
      requests.map((request) => new URL(request.url()).origin).filter((origin) => origin !== dashboard.url && origin !== 'data:'),
    ).toEqual([]);
    expect(consoleErrors.filter((text) => /Content.Security.Policy|Refused to/i.test(text))).toEqual([]);
  });

  it('signs out', async () => {
    await open('#/keys');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await open('#/keys');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });
});
