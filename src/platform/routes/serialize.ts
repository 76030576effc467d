import { z } from 'zod';
import type { ApiKeyRow } from '../store/api-keys.js';

export const apiKeySchema = z.object({
  id: z.guid(),
  name: z.string(),
  prefix: z.literal('svc_live_'),
  suffix: z.string().describe('last characters of the key, to recognise it'),
  scopes: z.array(z.string()),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable().describe('when a request last authenticated with the key, to the minute; null if never'),
  created_at: z.string(),
  updated_at: z.string(),
});

export function apiKeyJson(row: ApiKeyRow): z.infer<typeof apiKeySchema> {
  return {
    id: row.id,
    name: row.name,
    prefix: 'svc_live_',
    suffix: row.suffix,
    scopes: row.scopes,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
