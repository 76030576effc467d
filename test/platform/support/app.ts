import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { z } from 'zod';
import {
  accessDocumentation,
  loadPlatformConfig,
  principalOf,
  registerPlatform,
  type Plan,
  type Platform,
} from '../../../src/platform/index.js';
import { createApp } from '../../../src/web/app.js';
import { idParams, limitOffset, listEnvelope, paginationQuery } from '../../../src/web/pagination.js';
import { defineRoute } from '../../../src/web/route.js';

export interface TestApp {
  app: FastifyInstance;
  platform: Platform;
  dataDir: string;
  close(): Promise<void>;
}

export const tempDir = () => mkdtempSync(path.join(os.tmpdir(), 'platform-test-'));

const ITEMS = Array.from({ length: 45 }, (_, index) => ({ n: index + 1 }));

/** The real fastify app with the platform and a few routes that only tests declare. */
export async function buildTestApp(env: Record<string, string> = {}, dataDir = tempDir()): Promise<TestApp> {
  const app = createApp({ logger: pino({ level: 'silent' }), bodyLimit: 1024 * 1024, accessDocumentation });
  const platform = await registerPlatform(app, { config: loadPlatformConfig({ DATA_DIR: dataDir, ADMIN_ENDPOINT: 'false', ...env }) });
  app.get('/healthz', async () => ({ ok: true }));

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/api/v1/test/things',
      summary: 'test list',
      access: { auth: 'key-or-cookie', scope: 'participants:read' },
      query: paginationQuery,
    },
    async ({ query }) =>
      listEnvelope(ITEMS.slice(limitOffset(query).offset, limitOffset(query).offset + query.pageSize), ITEMS.length, query),
  );

  defineRoute(
    app,
    {
      method: 'DELETE',
      url: '/api/v1/test/things/:id',
      summary: 'test delete',
      access: { auth: 'key-or-cookie', scope: 'participants:delete' },
      status: 204,
      params: idParams,
    },
    async () => undefined,
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/v1/test/sessions',
      summary: 'test paid, credit-metered create',
      status: 201,
      access: { auth: 'key-or-cookie', scope: 'sessions:write', paidPlan: true, meter: 'credits' },
      body: z.object({ candidate: z.string(), accountSlug: z.string().optional() }),
    },
    async ({ request, body }) => {
      await platform.meter(request, 'credits');
      return { data: { candidate: body.candidate, workspace: principalOf(request).workspaceSlug } };
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/v1/test/mcp',
      summary: 'test MCP-metered call',
      access: { auth: 'key', meter: 'mcp_code_executions' },
    },
    async ({ request }) => {
      await platform.meter(request, 'mcp_code_executions');
      return { ok: true };
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/v1/test/execute',
      summary: 'test anonymous-friendly route',
      access: { auth: 'optional-key' },
    },
    async ({ request }) => ({ workspace: request.principal?.workspaceSlug ?? null }),
  );

  defineRoute(app, { method: 'GET', url: '/api/v1/test/boom', summary: 'test failure', access: { auth: 'none' } }, async () => {
    throw new Error('SELECT password_hash FROM users failed');
  });

  await app.ready();
  return {
    app,
    platform,
    dataDir,
    close: async () => {
      await app.close();
    },
  };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export async function createWorkspace(platform: Platform, slug: string, plan: Plan): Promise<void> {
  await platform.admin({ command: 'workspace.create', slug, plan });
}

/** A new key of the workspace with these scopes; the CLI output's last line is the key. */
export async function createKey(platform: Platform, workspace: string, scopes: string): Promise<string> {
  const output = await platform.admin({ command: 'key.create', workspace, scopes });
  return output.split('\n').at(-1)!;
}
