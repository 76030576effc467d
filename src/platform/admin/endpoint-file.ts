import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const FILE = 'admin-endpoint.json';

const endpointSchema = z.object({ url: z.string(), token: z.string(), pid: z.number().int() });
export type AdminEndpoint = z.infer<typeof endpointSchema>;

/** Readable by the service's own user only: whoever reads the token can administer the service. */
export function writeEndpointFile(dataDir: string, endpoint: AdminEndpoint): void {
  const file = path.join(dataDir, FILE);
  rmSync(file, { force: true });
  writeFileSync(file, JSON.stringify(endpoint), { mode: 0o600, flag: 'wx' });
}

export function readEndpointFile(dataDir: string): AdminEndpoint | undefined {
  try {
    return endpointSchema.parse(JSON.parse(readFileSync(path.join(dataDir, FILE), 'utf8')));
  } catch {
    return undefined;
  }
}

export function removeEndpointFile(dataDir: string, token: string): void {
  // Only our own file: a newer service in the same folder may have replaced it.
  if (readEndpointFile(dataDir)?.token === token) rmSync(path.join(dataDir, FILE), { force: true });
}
