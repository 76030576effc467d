import type { Service } from '../../src/service.js';

/**
 * The one place the MCP tests touch the platform layer (workspaces, keys, plans). Until
 * src/platform exists the endpoint runs without its auth hook, so any key string passes;
 * once it lands, these must create real workspaces and keys through its API.
 */
export const PLATFORM_PRESENT = false;

function notWired(): never {
  throw new Error('test/mcp/keys.ts is not wired to src/platform yet');
}

/** A key of a fresh workspace whose plan allows the given MCP uses per month (unlimited by default). */
export async function createApiKey(_service: Service, _allowance?: { mcp_code_executions?: number; mcp_problem_generations?: number }): Promise<string> {
  return PLATFORM_PRESENT ? notWired() : 'svc_live_placeholder';
}

export async function revokeApiKey(_service: Service, _key: string): Promise<void> {
  notWired();
}

/** A valid dashboard session cookie header value for a fresh workspace. */
export async function sessionCookie(_service: Service): Promise<string> {
  return notWired();
}
