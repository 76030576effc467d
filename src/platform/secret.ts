import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

const SECRET_FILE = 'session-secret';

/** SESSION_SECRET when set; otherwise one generated on first start and kept (0600) in the data folder. */
export function sessionSecret(dataDir: string, configured?: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, SECRET_FILE);
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
