import { z } from 'zod';
import { envInt as int } from '../web/env.js';

/** The interview resources' environment variables; src/config.ts merges this shape into the service's. */
export const resourcesConfigSchema = z.object({
  // Outbound requests (webhooks, résumé fetches) refuse loopback, private and link-local addresses
  // unless they fall in one of these comma-separated CIDRs (e.g. `127.0.0.0/8,::1/128` for tests).
  OUTBOUND_ALLOWED_NETWORKS: z.string().default(''),
  WEBHOOK_TIMEOUT_MS: int(10_000, 100),
  RESUME_TIMEOUT_MS: int(15_000, 100),
  RESUME_MAX_BYTES: int(10 * 1024 * 1024, 1024),
});

export type ResourcesConfig = z.infer<typeof resourcesConfigSchema>;
