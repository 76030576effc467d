import { AdminError, runAdminCommand, type AdminCommand } from '../platform/admin/commands.js';
import { readEndpointFile, type AdminEndpoint } from '../platform/admin/endpoint-file.js';
import type { PlatformConfig } from '../platform/config.js';
import { alive } from '../platform/db/lock.js';
import { openDatabase } from '../platform/db/open.js';

async function remote(endpoint: AdminEndpoint, command: AdminCommand): Promise<string> {
  const response = await fetch(`${endpoint.url}/admin/command`, {
    method: 'POST',
    headers: { authorization: `Bearer ${endpoint.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(command),
  });
  const body = (await response.json()) as { output?: string; error?: string };
  if (!response.ok) throw new AdminError(body.error ?? `admin endpoint answered ${response.status}`);
  return body.output ?? '';
}

/**
 * A running service owns the embedded database, so commands go to its admin endpoint when it has
 * published one; otherwise (stopped, or a leftover file from a crashed service) the CLI opens the
 * database itself, which the data folder's lock refuses while any other process holds it.
 */
export async function execute(config: PlatformConfig, command: AdminCommand): Promise<string> {
  const endpoint = readEndpointFile(config.DATA_DIR);
  if (endpoint && alive(endpoint.pid)) return remote(endpoint, command);
  const database = await openDatabase({ dataDir: config.DATA_DIR, databaseUrl: config.DATABASE_URL });
  try {
    return await runAdminCommand(database.db, config, command);
  } finally {
    await database.close();
  }
}
