import { chromium, type Page } from 'playwright-core';
import type { Service } from '../../../src/service.js';
import { startTestService } from '../../support/service.js';

/** Debian's Chromium, installed by `docker/setup-host.sh --test`: no browser is downloaded. */
const CHROMIUM = '/usr/bin/chromium';

export interface Dashboard {
  /** The service's origin, no trailing slash; the dashboard is at `${url}/dashboard`. */
  url: string;
  service: Service;
  /** A member of `workspace`, the only workspace they belong to (so the dashboard selects it). */
  email: string;
  password: string;
  workspace: string;
  admin: Service['platform']['admin'];
  close(): Promise<void>;
}

/** The real service (real Docker, embedded database) with the dashboard on, one workspace on a paid plan and its member. */
export async function startDashboard(env: Record<string, string> = {}): Promise<Dashboard> {
  const service = await startTestService({ DASHBOARD_ENABLED: 'true', ...env });
  const admin = service.platform.admin;
  const dashboard = { email: 'admin@example.com', password: 'correct horse battery', workspace: 'acme' };
  try {
    await admin({ command: 'workspace.create', slug: dashboard.workspace, plan: 'pro' });
    await admin({ command: 'user.create', email: dashboard.email, password: dashboard.password });
    await admin({ command: 'member.add', workspace: dashboard.workspace, email: dashboard.email });
  } catch (error) {
    await service.close();
    throw error;
  }
  return { ...dashboard, url: service.url, service, admin, close: () => service.close() };
}

/** Headless Chromium with one page; what the page logs to its console goes to the test's output, to say why a test failed. */
export async function openBrowser(): Promise<{ page: Page; close(): Promise<void> }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') console.log(`[browser ${message.type()}] ${message.text()}`);
  });
  page.on('pageerror', (error) => console.log(`[browser page error] ${error.message}`));
  return { page, close: () => browser.close() };
}

/** Signs in through the form; resolves once the shell (navigation and a page heading) is drawn. */
export async function signIn(page: Page, url: string, email: string, password: string): Promise<void> {
  await page.goto(`${url}/dashboard`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).waitFor();
  await page.locator('main h1').first().waitFor();
}
