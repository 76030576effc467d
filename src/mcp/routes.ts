import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parse as parseLossless } from 'lossless-json';
import { z } from 'zod';
import { DEFAULT_LIMITS, type RequestLimits } from '../core/request-schema.js';
import type { Runner } from '../core/runner.js';
import { HttpError } from '../http/http-error.js';
import type { OpenApiOperation } from '../platform/index.js';
import { losslessJson } from '../http/lossless-body.js';
import { answerBody, errorResponse, RpcCode, RpcError, type JsonRpcResponse } from './jsonrpc.js';
import { ProblemGenerator } from './problems/generator.js';
import { McpServer, PROTOCOL_VERSIONS, type CallGuard } from './protocol.js';
import { executeCodeTool } from './tools/execute-code.js';
import { generateProblemTool } from './tools/generate-problem.js';
import type { McpCounter } from './tools/tool.js';

export interface McpRoutesOptions {
  runner: Runner;
  /** The execution time limit, quoted in timeout messages. */
  timeoutMs: number;
  bodyLimit: number;
  /** Bounds shown in execute_code's input schema; the runner enforces its own. */
  requestLimits?: RequestLimits;
  metering: McpMetering;
  document: (operation: OpenApiOperation) => void;
}

/** The platform's plan counters, as this endpoint needs them (wired in src/http/server.ts). */
export interface McpMetering {
  /** Rejects with an HTTP 402 error when the request's workspace has no allowance left for the counter. */
  ensureAllowance(request: FastifyRequest, counter: McpCounter): Promise<void>;
  /** Counts one successful use against the request's workspace. */
  record(request: FastifyRequest, counter: McpCounter): Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

// For the OpenAPI document only: the handler checks each message itself, so a bad one gets a JSON-RPC error, not a 400.
const rpcMessage = z.object({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number()]).optional(), method: z.string(), params: z.record(z.string(), z.unknown()).optional() });
const rpcBody = z.union([rpcMessage, z.array(rpcMessage)]);

/** Streamable HTTP clients must accept JSON; a client that only takes SSE cannot use this server. */
function checkHeaders(request: FastifyRequest): void {
  const version = request.headers['mcp-protocol-version'];
  if (typeof version === 'string' && !(PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
    throw new HttpError(400, `unsupported MCP-Protocol-Version "${version}"; supported: ${PROTOCOL_VERSIONS.join(', ')}`);
  }
  const accept = request.headers.accept;
  if (accept && !/(^|,)\s*(application\/json|application\/\*|\*\/\*)\s*(;|,|$)/i.test(accept)) {
    throw new HttpError(406, 'Accept must include application/json: this server answers with JSON, never an event stream');
  }
}

function send(reply: FastifyReply, answer: JsonRpcResponse | JsonRpcResponse[] | undefined): FastifyReply {
  if (answer === undefined) return reply.code(202).send();
  return reply.code(200).type(JSON_TYPE).send(losslessJson(answer));
}

/** POST /api/mcp: JSON-RPC 2.0 over the MCP Streamable HTTP transport, answered with plain JSON. */
export async function mcpRoutes(app: FastifyInstance, options: McpRoutesOptions): Promise<void> {
  const server = new McpServer([
    executeCodeTool(options.runner, options.requestLimits ?? DEFAULT_LIMITS, options.timeoutMs),
    generateProblemTool(new ProblemGenerator(options.runner)),
  ]);

  // The body is parsed in the handler: a parse error is a JSON-RPC answer (-32700, HTTP 200), not a 400.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: options.bodyLimit }, (_request, body, done) => done(null, body));

  options.document({
    method: 'POST', url: '/api/mcp', tags: ['mcp'], access: { auth: 'key' },
    summary: 'JSON-RPC 2.0 for MCP clients (Streamable HTTP, plain JSON answers): initialize, tools/list, tools/call, ping',
    description: 'Tools: execute_code and generate_problem. JSON-RPC errors travel with HTTP 200; a notification gets 202 without a body. Each successful tools/call counts against the monthly mcp_code_executions or mcp_problem_generations allowance (402 past it). Session cookies are refused (401).',
    body: rpcBody,
    responses: { 402: 'The monthly allowance of the called tool is used up', 406: 'Accept does not include application/json' },
  });
  app.post('/api/mcp', { bodyLimit: options.bodyLimit, config: { access: { auth: 'key' } } }, async (request, reply) => {
    checkHeaders(request);
    let body: unknown;
    try {
      body = parseLossless(String(request.body ?? ''));
    } catch (error) {
      return send(reply, errorResponse(null, RpcCode.ParseError, `parse error: ${(error as Error).message}`));
    }
    const guard: CallGuard = {
      before: (counter) => options.metering.ensureAllowance(request, counter),
      after: (counter) => options.metering.record(request, counter),
    };
    const answer = await answerBody(body, async (method, params) => {
      try {
        return await server.handle(method, params, guard);
      } catch (error) {
        if (error instanceof RpcError || error instanceof HttpError) throw error;
        request.log.error({ err: error, method }, 'MCP method failed');
        throw new RpcError(RpcCode.InternalError, 'internal error');
      }
    });
    return send(reply, answer);
  });

  // No server-to-client stream and no sessions to end, so only POST is offered.
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) => reply
    .code(405).header('allow', 'POST').type(JSON_TYPE)
    .send({ error: 'method not allowed: this endpoint takes JSON-RPC over POST and offers no event stream or sessions' });
  app.get('/api/mcp', { config: { access: { auth: 'none' } } }, notAllowed);
  app.delete('/api/mcp', { config: { access: { auth: 'none' } } }, notAllowed);
}
