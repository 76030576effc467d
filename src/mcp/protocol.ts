import type { RunOptions } from '../core/runner.js';
import type { MonthlyCounter } from '../platform/index.js';
import { RpcCode } from '../web/error-map.js';
import { isJsonObject } from '../web/json.js';
import { RpcError } from './jsonrpc.js';
import type { Tool } from './tools/tool.js';

/** Newest first. The methods used here (tools, ping) behave the same in all of them. */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

const SERVER_INFO = { name: 'code-runner', title: 'Code runner', version: '1.0.0' };

const INSTRUCTIONS =
  "Use generate_problem to get a coding problem (deterministic per seed) and execute_code to run a solution against test cases; a problem's testCases and functionNames can be passed to execute_code unchanged.";

/** Metering around one tool call, bound to the HTTP request by the route. */
export interface CallGuard {
  /** Throws (a quota error, answered with HTTP 402) when the workspace has no allowance left for the counter. */
  before(counter: MonthlyCounter): Promise<void>;
  after(counter: MonthlyCounter): Promise<void>;
  /** Whose call it is; its signal aborts when the request's key is revoked: the call stops and nothing is metered. */
  run: RunOptions;
}

function paramsObject(params: unknown): Record<string, unknown> {
  if (params === undefined) return {};
  if (!isJsonObject(params)) throw new RpcError(RpcCode.InvalidParams, 'params must be an object');
  return params;
}

/** The MCP methods of this stateless server: no sessions, so every request stands alone. */
export class McpServer {
  private readonly tools: Map<string, Tool>;

  constructor(tools: readonly Tool[]) {
    this.tools = new Map(tools.map((tool) => [tool.name, tool]));
  }

  async handle(method: string, rawParams: unknown, guard: CallGuard): Promise<unknown> {
    switch (method) {
      case 'initialize':
        return this.initialize(paramsObject(rawParams));
      case 'ping':
        return {};
      case 'tools/list':
        return {
          tools: [...this.tools.values()].map(({ name, title, description, inputSchema, outputSchema }) => ({
            name,
            title,
            description,
            inputSchema,
            outputSchema,
          })),
        };
      case 'tools/call':
        return this.callTool(paramsObject(rawParams), guard);
      default:
        throw new RpcError(RpcCode.MethodNotFound, `method not found: ${method}`);
    }
  }

  private initialize(params: Record<string, unknown>): unknown {
    const requested = params.protocolVersion;
    if (typeof requested !== 'string') throw new RpcError(RpcCode.InvalidParams, 'params.protocolVersion must be a string');
    const supported: readonly string[] = PROTOCOL_VERSIONS;
    return {
      protocolVersion: supported.includes(requested) ? requested : PROTOCOL_VERSIONS[0],
      capabilities: { tools: {} },
      serverInfo: SERVER_INFO,
      instructions: INSTRUCTIONS,
    };
  }

  private async callTool(params: Record<string, unknown>, guard: CallGuard): Promise<unknown> {
    if (typeof params.name !== 'string') throw new RpcError(RpcCode.InvalidParams, 'params.name must be the name of a tool');
    const tool = this.tools.get(params.name);
    if (!tool) throw new RpcError(RpcCode.InvalidParams, `unknown tool "${params.name}"; available: ${[...this.tools.keys()].join(', ')}`);
    await guard.before(tool.counter);
    const result = await tool.call(params.arguments, guard.run);
    guard.run.signal?.throwIfAborted();
    if (!result.isError) await guard.after(tool.counter);
    return result;
  }
}
