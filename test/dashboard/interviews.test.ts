import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, signIn, startDashboard } from './support/browser.js';

/**
 * The interview pages of the dashboard (docs/dashboard-interviews.md) in real headless Chromium against the real
 * service: everything is created through the dashboard's forms, except the scorecard, which the interview engine
 * posts with an API key.
 */

const SCREENSHOT = path.resolve('docs/images/dashboard-scorecard.png');
const HOSTILE_NAME = '<img src=x onerror=alert(1)>';

type Dashboard = Awaited<ReturnType<typeof startDashboard>>;
type Browser = Awaited<ReturnType<typeof openBrowser>>;

let dashboard: Dashboard;
let browser: Browser;
let page: Page;
/** Dialogs (alert...) the page opened: an escaped name opens none. */
const dialogs: string[] = [];
/**
 * Script errors and console errors other than failed requests (the sign-in probe's 401, the refused form's 400, the 404 of a
 * scorecard not yet reported are answers the pages handle): a CSP violation ("Refused to apply inline style") lands here.
 */
const consoleErrors: string[] = [];

/** A call of the API with a key, as the interview engine makes it; a non-2xx answer fails with the server's words. */
async function withKey<T>(key: string, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${dashboard.url}/api/v1${route}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

async function adminKey(workspace: string): Promise<string> {
  const output = await dashboard.admin({ command: 'key.create', workspace, scopes: 'all' });
  return output.split('\n').at(-1)!;
}

/** Loads the dashboard afresh at a page (a goto that only changes the hash would keep the previous page's heading). */
async function open(hash: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${dashboard.url}/dashboard${hash}`);
  await page.locator('main h1').first().waitFor();
}

/** The create form behind its disclosure, opened if it is closed. */
async function createForm(name: string): Promise<Locator> {
  const details = page.locator('details.iv-create', { has: page.getByText(name, { exact: true }) });
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  return page.getByRole('form', { name });
}

/** The message drawn for a control: the texts its aria-describedby names. */
async function describedBy(control: Locator): Promise<string> {
  return control.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

/** The cells of a table's body, row by row. */
async function rowsOf(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
}

beforeAll(async () => {
  dashboard = await startDashboard();
  browser = await openBrowser();
  page = browser.page;
  await page.setViewportSize({ width: 1200, height: 900 });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await signIn(page, dashboard.url, dashboard.email, dashboard.password);
});

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
});

describe('interview pages', () => {
  const ids: { interviewer?: string; role?: string; participant?: string; hostile?: string; session?: string } = {};

  it('creates an interviewer with dimensions and weights, showing the API message beside the dimensions when the weights are wrong', async () => {
    await open('#/interviewers');
    const form = await createForm('New interviewer');
    await form.getByLabel('Name').fill('Ledger expert');
    await form.getByLabel('Persona').fill('A senior engineer who built payment ledgers.');
    await form.getByLabel('Use case').selectOption('hiring');
    const dimensions = form.getByLabel('Evaluation dimensions');
    await dimensions.fill('Problem solving | 60 | Breaks a problem down\nCommunication | 30 | Explains the trade-offs');
    await form.getByRole('button', { name: 'Create interviewer' }).click();

    await expect.poll(() => dimensions.getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(dimensions)).toContain('weights must sum to 100 (they sum to 90)');

    await dimensions.fill('Problem solving | 60 | Breaks a problem down\nCommunication | 40 | Explains the trade-offs');
    await form.getByRole('button', { name: 'Create interviewer' }).click();
    await page.waitForURL(/#\/interviewers\/[0-9a-f-]{36}$/);
    ids.interviewer = page.url().split('/').at(-1);
    await expect.poll(() => page.locator('main h1').textContent()).toBe('Ledger expert');
    expect(await rowsOf(page.locator('main table'))).toEqual([
      ['Problem solving', '60 %', 'Breaks a problem down'],
      ['Communication', '40 %', 'Explains the trade-offs'],
    ]);

    await open('#/interviewers');
    const row = (await rowsOf(page.locator('main table')))[0];
    expect(row[0]).toBe('Ledger expert');
    expect(row[3]).toBe('Problem solving: 60 %Communication: 40 %');
  });

  it('creates a role, then its rounds in order with the interviewer', async () => {
    await open('#/roles');
    const form = await createForm('New role');
    await form.getByLabel('Name').fill('Backend engineer');
    await form.getByLabel('Use case').selectOption('hiring');
    await form.getByLabel('Description').fill('Builds the payment services.');
    await form.getByLabel('Objective').fill('Find someone who can own the ledger.');
    await form.getByRole('button', { name: 'Create role' }).click();
    await page.waitForURL(/#\/roles\/[0-9a-f-]{36}$/);
    ids.role = page.url().split('/').at(-1);

    for (const [name, threshold] of [
      ['Phone screen', '60'],
      ['Technical', '70'],
    ]) {
      const rounds = await createForm('Add a round');
      await rounds.getByLabel('Round name').fill(name);
      await rounds.getByLabel('Interviewer').selectOption({ label: 'Ledger expert' });
      await rounds.getByLabel('Pass threshold (%)').fill(threshold);
      await rounds.getByRole('button', { name: 'Add round' }).click();
      await expect.poll(() => page.getByRole('status').textContent()).toBe(`Round ${name} added.`);
    }
    const rows = await rowsOf(page.locator('section[aria-labelledby="rounds-heading"] table'));
    expect(rows.map((row) => [row[1], row[3], row[5]])).toEqual([
      ['Phone screen', 'Ledger expert', '60 %'],
      ['Technical', 'Ledger expert', '70 %'],
    ]);
    expect(Number(rows[0][0])).toBeLessThan(Number(rows[1][0]));
  });

  it('creates participants from the keyboard alone, and a hostile name stays text in the list and on its page', async () => {
    for (const [name, email] of [
      ['Ada Lovelace', 'ada@example.test'],
      [HOSTILE_NAME, 'mallory@example.test'],
    ]) {
      await open('#/participants');
      const form = await createForm('New participant');
      await form.getByLabel('Name').focus();
      await page.keyboard.type(name);
      await page.keyboard.press('Tab');
      await page.keyboard.type(email);
      await page.keyboard.press('Tab');
      // The role select: typing its first letters picks "Backend engineer", as a keyboard user would.
      await page.keyboard.type('Backend');
      // Enter in a text field submits its form.
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      await page.waitForURL(/#\/participants\/[0-9a-f-]{36}$/);
      await expect.poll(() => page.locator('main h1').textContent()).toBe(name);
      const id = page.url().split('/').at(-1);
      if (name === HOSTILE_NAME) ids.hostile = id;
      else ids.participant = id;
    }
    expect(await page.locator('main img').count()).toBe(0);

    await open('#/participants');
    const names = (await rowsOf(page.locator('main table'))).map((row) => row[0]);
    expect(names).toContain(HOSTILE_NAME);
    expect(names).toContain('Ada Lovelace');
    expect(await page.locator('main img').count()).toBe(0);

    await page.getByRole('search').getByLabel('Name or email contains').fill('lovelace');
    await page.getByRole('search').getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/#\/participants\?search=lovelace$/);
    await expect.poll(async () => (await rowsOf(page.locator('main table'))).map((row) => row[0])).toEqual(['Ada Lovelace']);
    expect(dialogs).toEqual([]);
  });

  it('schedules a session from the participant page and shows its scorecard once the engine posts it', async () => {
    await open(`#/participants/${ids.participant}`);
    const form = await createForm('Schedule a session');
    await form.getByLabel('Round', { exact: true }).selectOption({ label: 'Backend engineer: 1. Phone screen' });
    await form.getByLabel('Time', { exact: true }).fill('2030-05-04T09:30');
    await form.getByLabel('Time zone of the invite').fill('Europe/Paris');
    await form.getByRole('button', { name: 'Schedule and send invite' }).click();
    await page.waitForURL(/#\/sessions\/[0-9a-f-]{36}$/);
    ids.session = page.url().split('/').at(-1);
    await expect.poll(() => page.locator('main').textContent()).toContain('Session of Ada Lovelace');
    expect(await page.locator('.iv-history li').allTextContents()).toEqual([expect.stringMatching(/^scheduled /)]);

    const key = await adminKey(dashboard.workspace);
    await withKey(key, 'POST', `/sessions/${ids.session}/start`);
    await withKey(key, 'POST', `/sessions/${ids.session}/scorecard`, {
      scores: { 'Problem solving': 8, Communication: 7 },
      transcript: [
        { speaker: 'interviewer', text: 'Tell me about a ledger you built.', at: '2030-05-04T07:31:00Z' },
        { speaker: 'participant', text: 'A double-entry ledger for card payments.', at: '2030-05-04T07:32:00Z' },
      ],
      recording_url: 'https://recordings.example.com/s/1.mp4',
      summary: 'Solid grasp of double-entry bookkeeping.',
    });

    await page.reload();
    await page.locator('.iv-scorecard').waitFor();
    expect(await page.locator('.iv-history li .iv-badge').allTextContents()).toEqual(['scheduled', 'in progress', 'completed']);
    // 8 × 0.6 + 7 × 0.4 = 7.6 on 0-10: 76 % against the round's 60 %.
    expect(await page.locator('.iv-verdict').textContent()).toBe('hire Passed');
    expect(await page.locator('.iv-result').textContent()).toContain('7.6 / 10 (76 %)');
    expect(await page.locator('.iv-scorecard dl').textContent()).toContain('Pass threshold60 % of the scale (6 / 10)');
    const bars = await page
      .locator('.iv-scorecard meter')
      .evaluateAll((meters) =>
        meters.map((meter) => [meter.getAttribute('aria-label'), (meter as HTMLMeterElement).value, (meter as HTMLMeterElement).max]),
      );
    expect(bars).toEqual([
      ['Weighted result: 7.6 of 10', 7.6, 10],
      ['Problem solving: 8 of 10', 8, 10],
      ['Communication: 7 of 10', 7, 10],
    ]);
    expect(await page.locator('.iv-transcript li').allTextContents()).toEqual([
      expect.stringContaining('Tell me about a ledger you built.'),
      expect.stringContaining('A double-entry ledger for card payments.'),
    ]);
    expect(await page.getByRole('link', { name: 'Open the recording' }).getAttribute('href')).toBe(
      'https://recordings.example.com/s/1.mp4',
    );

    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    // The session's facts, its history and the whole scorecard fit in the fixed 1200×900 viewport from the top.
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await page.locator('.iv-scorecard table').evaluate((table) => table.getBoundingClientRect().bottom)).toBeLessThanOrEqual(900);
    await page.screenshot({ path: SCREENSHOT });
  });

  it('lists sessions with the API filters', async () => {
    await open('#/sessions');
    const search = page.getByRole('search');
    await search.getByLabel('Status').selectOption('completed');
    await search.getByLabel('Role').selectOption({ label: 'Backend engineer' });
    await search.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/#\/sessions\?status=completed&roleId=/);
    await expect.poll(async () => (await rowsOf(page.locator('main table'))).map((row) => row[0])).toEqual(['Ada Lovelace, Phone screen']);

    await open('#/sessions?status=scheduled');
    expect(await page.locator('main .empty').textContent()).toBe('No session matches these filters.');
  });

  it('pages through a list with the pager, keeping the filters in the address', async () => {
    const key = await adminKey(dashboard.workspace);
    const participants = Array.from({ length: 20 }, (_, index) => ({ name: `Bulk ${index + 1}`, email: `bulk${index + 1}@example.test` }));
    await withKey(key, 'POST', '/participants/bulk', { participants });

    await open('#/participants?status=active');
    const pager = page.getByRole('navigation', { name: 'Pages' });
    expect(await pager.textContent()).toContain('Page 1 of 2 (22 in all)');
    expect(await page.locator('main tbody tr').count()).toBe(20);
    await pager.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/#\/participants\?status=active&page=2$/);
    await expect.poll(() => page.locator('main tbody tr').count()).toBe(2);
    expect(await pager.textContent()).toContain('Page 2 of 2 (22 in all)');
  });

  it("never shows another workspace's rows", async () => {
    await dashboard.admin({ command: 'workspace.create', slug: 'other-team', plan: 'enterprise' });
    const key = await adminKey('other-team');
    const other = await withKey<{ data: { id: string } }>(key, 'POST', '/participants', {
      name: 'Other Tenant',
      email: 'other@example.test',
    });

    await open('#/participants');
    expect(await page.locator('main').textContent()).not.toContain('Other Tenant');
    await open(`#/participants/${other.data.id}`);
    expect(await page.getByRole('alert').textContent()).toContain('404');
    expect(await page.locator('main').textContent()).not.toContain('Other Tenant');
  });

  it('reads on a narrow screen without sideways scrolling, with no CSP or console errors', async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    for (const hash of [`#/sessions/${ids.session}`, '#/sessions', `#/roles/${ids.role}`, '#/participants']) {
      await open(hash);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${hash} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize({ width: 1200, height: 900 });
    expect(consoleErrors).toEqual([]);
    expect(dialogs).toEqual([]);
  });
});
