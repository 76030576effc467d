import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { NotFoundError } from '../web/errors.js';
import { defineRoute } from '../web/route.js';
import { bundleClient } from './bundle.js';
import { secureHeaders } from './security-headers.js';
import { BASE, shellHtml } from './shell.js';

const PUBLIC = { auth: 'none' } as const;

/**
 * The team dashboard at /dashboard: an HTML shell and its two hashed assets. It is a thin client of
 * /api/v1 (docs/dashboard.md); the server side only serves files. Register it only when
 * DASHBOARD_ENABLED: the bundle is built here, so a runner-only deployment builds nothing.
 */
export async function registerDashboard(app: FastifyInstance): Promise<void> {
  const bundle = await bundleClient();
  const shell = shellHtml(bundle);
  const assets = new Map([bundle.script, bundle.style].map((asset) => [asset.name, asset]));

  defineRoute(app, { method: 'GET', url: BASE, summary: 'Dashboard', access: PUBLIC, undocumented: true }, async ({ reply }) =>
    // The shell names the current assets, so it is asked for again every time.
    secureHeaders(reply).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(shell),
  );

  defineRoute(app, { method: 'GET', url: `${BASE}/`, summary: 'Dashboard', access: PUBLIC, undocumented: true }, async ({ reply }) =>
    reply.redirect(BASE),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: `${BASE}/assets/:name`,
      summary: 'Dashboard asset',
      access: PUBLIC,
      undocumented: true,
      params: z.object({ name: z.string() }),
    },
    async ({ params, reply }) => {
      const asset = assets.get(params.name);
      if (!asset) throw new NotFoundError(`no dashboard asset ${params.name}`);
      return secureHeaders(reply).header('cache-control', 'public, max-age=31536000, immutable').type(asset.type).send(asset.body);
    },
  );
}
