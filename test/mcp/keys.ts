import type { Service } from '../../src/service.js';

/**
 * The one place the MCP tests touch the platform layer (workspaces, keys, plans). The platform
 * (issue 3) is not built yet, so the endpoint has no auth hook and the key sent here is not
 * checked; the auth and allowance tests of issue 6 come with the platform.
 */
export async function createApiKey(_service: Service): Promise<string> {
  return 'svc_live_unchecked';
}
