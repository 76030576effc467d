import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ExecutionRunner } from '../core/runner.js';
import type { Platform } from '../platform/index.js';
import { RpcCode, rpcAnswer } from '../web/error-map.js';
import { ProtocolError } from '../web/errors.js';
import { exactJson, parseExactJson } from '../web/json.js';
import { defineRoute } from '../web/route.js';
import { answerBody, errorResponse, RpcError, type JsonRpcResponse } from './jsonrpc.js';
import { ProblemGenerator } from './problems/generator.js';
import { McpServer, PROTOCOL_VERSIONS, type CallGuard } from './protocol.js';
import { executeCodeTool } from './tools/execute-code.js';
import { generateProblemTool } from './tools/generate-problem.js';

export interface McpRoutesOptions {
  runner: ExecutionRunner;
  /** The execution time limit, quoted in timeout messages. */
  timeoutMs: number;
  /** The platform's plan counters, checked before a tool call and recorded after one succeeds. */
  metering: Pick<Platform, 'checkMeter' | 'meter'>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

// For the OpenAPI document only: the handler checks each message itself, so a bad one gets a JSON-RPC error, not a 400.
const rpcMessage = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number()]).optional(),
  method: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
});
const rpcBody = z.union([rpcMessage, z.array(rpcMessage)]);

/** Streamable HTTP clients must accept JSON; a client that only takes SSE cannot use this server. */
function checkHeaders(request: FastifyRequest): void {
  const version = request.headers['mcp-protocol-version'];
  if (typeof version === 'string' && !(PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
    throw new ProtocolError(400, `unsupported MCP-Protocol-Version "${version}"; supported: ${PROTOCOL_VERSIONS.join(', ')}`);
  }
  const accept = request.headers.accept;
  if (accept && !/(^|,)\s*(application\/json|application\/\*|\*\/\*)\s*(;|,|$)/i.test(accept)) {
    throw new ProtocolError(406, 'Accept must include application/json: this server answers with JSON, never an event stream');
  }
}

function send(reply: FastifyReply, answer: JsonRpcResponse | JsonRpcResponse[] | undefined): FastifyReply {
  if (answer === undefined) return reply.code(202).send();
  return reply.code(200).type(JSON_TYPE).send(exactJson(answer));
}

/** POST /api/mcp: JSON-RPC 2.0 over the MCP Streamable HTTP transport, answered with plain JSON. */
export function mcpRoutes(app: FastifyInstance, options: McpRoutesOptions): void {
  const server = new McpServer([
    executeCodeTool(options.runner, options.timeoutMs),
    generateProblemTool(new ProblemGenerator(options.runner)),
  ]);

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/mcp',
      tags: ['mcp'],
      access: { auth: 'key' },
      summary: 'JSON-RPC 2.0 for MCP clients (Streamable HTTP, plain JSON answers): initialize, tools/list, tools/call, ping',
      description:
        'Tools: execute_code and generate_problem. JSON-RPC errors travel with HTTP 200; a notification gets 202 without a body. Each successful tools/call counts against the monthly mcp_code_executions or mcp_problem_generations allowance (402 past it). Session cookies are refused (401).',
      // Parsed here, not by the kit: a parse error is a JSON-RPC answer (-32700, HTTP 200), not a 400.
      bodyFormat: 'text',
      body: rpcBody,
      responses: {
        400: 'Unsupported MCP-Protocol-Version',
        402: 'The monthly allowance of the called tool is used up',
        406: 'Accept does not include application/json',
      },
    },
    async ({ request, reply }) => {
      checkHeaders(request);
      let body: unknown;
      try {
        body = parseExactJson(String(request.body ?? ''));
      } catch (error) {
        return send(reply, errorResponse(null, RpcCode.ParseError, `parse error: ${(error as Error).message}`));
      }
      const guard: CallGuard = {
        before: (counter) => options.metering.checkMeter(request, counter),
        after: (counter) => options.metering.meter(request, counter),
        run: { signal: request.keyRevoked, caller: `key:${request.principal?.keyId}` },
      };
      const answer = await answerBody(body, async (method, params) => {
        try {
          return await server.handle(method, params, guard);
        } catch (error) {
          if (error instanceof RpcError) throw error;
          const rpc = rpcAnswer(error);
          if (rpc === 'http') throw error;
          if (rpc) throw new RpcError(rpc.code, rpc.message, rpc.data);
          request.log.error({ err: error, method }, 'MCP method failed');
          throw new RpcError(RpcCode.InternalError, 'internal error');
        }
      });
      return send(reply, answer);
    },
  );

  // No server-to-client stream and no sessions to end, so only POST is offered.
  for (const method of ['GET', 'DELETE'] as const) {
    defineRoute(
      app,
      {
        method,
        url: '/api/mcp',
        tags: ['mcp'],
        access: { auth: 'none' },
        summary: 'Not offered (405): no event stream and no sessions',
        undocumented: true,
      },
      async ({ reply }) =>
        reply
          .code(405)
          .header('allow', 'POST')
          .type(JSON_TYPE)
          .send({ error: 'method not allowed: this endpoint takes JSON-RPC over POST and offers no event stream or sessions' }),
    );
  }
}
