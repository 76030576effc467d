import { randomBytes, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import type { PlanSettings } from '../plans.js';
import { AdminError, runAdminCommand, type AdminCommand } from './commands.js';
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
  db: Db,
  settings: PlanSettings,
  dataDir: string,
  port: number,
  logger: FastifyBaseLogger,
): Promise<AdminServer> {
  const token = randomBytes(32).toString('base64url');
  const server = Fastify({ loggerInstance: logger, bodyLimit: 64 * 1024 });
  server.post('/admin/command', async (request, reply) => {
    if (!tokenMatches(request.headers.authorization, token)) return reply.code(401).send({ error: 'bad admin token' });
    try {
      return { output: await runAdminCommand(db, settings, request.body as AdminCommand) };
    } catch (error) {
      if (error instanceof AdminError) return reply.code(400).send({ error: error.message });
      request.log.error({ err: error }, 'admin command failed');
      return reply.code(500).send({ error: 'admin command failed; see the service log' });
    }
  });
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
