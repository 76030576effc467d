import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { createApp } from '../../web/app.js';
import { ProtocolError, UnauthenticatedError } from '../../web/errors.js';
import { defineRoute } from '../../web/route.js';
import { accessDocumentation } from '../access-docs.js';
import { AdminError, type AdminCommand } from './commands.js';
import { removeEndpointFile, writeEndpointFile } from './endpoint-file.js';

export interface AdminServer {
  url: string;
  close(): Promise<void>;
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer /, '') ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * While the service holds the embedded database, the CLI cannot open it; it sends its commands
 * here instead: a loopback-only listener guarded by a random token kept in the data folder (0600).
 */
export async function startAdminServer(
  run: (command: AdminCommand) => Promise<string>,
  dataDir: string,
  port: number,
  logger: FastifyBaseLogger,
): Promise<AdminServer> {
  const token = randomBytes(32).toString('base64url');
  const server = createApp({ logger, bodyLimit: 64 * 1024, accessDocumentation });
  // The token, not the platform's gate, guards this listener: it is outside /api and never documented.
  defineRoute(
    server,
    { method: 'POST', url: '/admin/command', summary: 'Run an admin CLI command', access: { auth: 'none' }, undocumented: true },
    async ({ request }) => {
      if (!tokenMatches(request.headers.authorization, token)) throw new UnauthenticatedError('bad admin token');
      try {
        return { output: await run(request.body as AdminCommand) };
      } catch (error) {
        if (error instanceof AdminError) throw new ProtocolError(400, error.message);
        throw error;
      }
    },
  );
  const url = await server.listen({ host: '127.0.0.1', port });
  writeEndpointFile(dataDir, { url, token, pid: process.pid });
  return {
    url,
    close: async () => {
      removeEndpointFile(dataDir, token);
      await server.close();
    },
  };
}
