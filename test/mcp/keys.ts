import type { Service } from '../../src/service.js';
import type { Plan } from '../../src/platform/index.js';

let workspaces = 0;

/** A new workspace on `plan` with a key for it, made through the same admin commands the CLI runs. */
export async function createApiKey(service: Service, plan: Plan = 'pro'): Promise<string> {
  workspaces += 1;
  const slug = `mcp-test-${process.pid}-${workspaces}`;
  await service.platform.admin({ command: 'workspace.create', slug, plan });
  const output = await service.platform.admin({ command: 'key.create', workspace: slug, scopes: 'all' });
  return output.trim().split('\n').at(-1)!;
}
