import { parse, stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { answerBody, RpcError, type MethodHandler } from '../../src/mcp/jsonrpc.js';
import { RpcCode } from '../../src/web/error-map.js';
import { McpServer, PROTOCOL_VERSIONS, type CallGuard } from '../../src/mcp/protocol.js';
import type { Tool } from '../../src/mcp/tools/tool.js';

const echo: MethodHandler = async (method, params) => {
  if (method === 'fail') throw new RpcError(RpcCode.InvalidParams, 'bad');
  return { method, params: params ?? null };
};

/** Parses like the route does, answers, and serialises like the route does. */
async function roundTrip(text: string, handle: MethodHandler = echo): Promise<unknown> {
  const answer = await answerBody(parse(text), handle);
  return answer === undefined ? undefined : JSON.parse(stringify(answer) ?? 'null');
}

describe('JSON-RPC envelope', () => {
  it('echoes string and numeric ids exactly, including digits beyond 2^53', async () => {
    expect(await roundTrip('{"jsonrpc":"2.0","id":"a-1","method":"m"}')).toEqual({
      jsonrpc: '2.0',
      id: 'a-1',
      result: { method: 'm', params: null },
    });
    const answer = await answerBody(parse('{"jsonrpc":"2.0","id":12345678901234567890,"method":"m"}'), echo);
    expect(stringify(answer)).toContain('"id":12345678901234567890');
  });

  it('rejects messages that are not JSON-RPC 2.0 requests with -32600', async () => {
    for (const text of [
      '{"id":1,"method":"m"}',
      '{"jsonrpc":"1.0","id":1,"method":"m"}',
      '{"jsonrpc":"2.0","id":1}',
      '{"jsonrpc":"2.0","id":1,"method":7}',
      '{"jsonrpc":"2.0","id":1,"method":"m","params":3}',
      '42',
    ]) {
      const answer = (await roundTrip(text)) as { error: { code: number } };
      expect(answer.error.code, text).toBe(RpcCode.InvalidRequest);
    }
    expect(await roundTrip('{"jsonrpc":"2.0","id":{"x":1},"method":"m"}')).toMatchObject({
      id: null,
      error: { code: RpcCode.InvalidRequest },
    });
    expect(await roundTrip('{"id":5,"method":"m"}')).toMatchObject({ id: 5 });
  });

  it('turns RpcErrors into error objects and lets other errors through', async () => {
    expect(await roundTrip('{"jsonrpc":"2.0","id":1,"method":"fail"}')).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: RpcCode.InvalidParams, message: 'bad' },
    });
    await expect(
      answerBody(parse('{"jsonrpc":"2.0","id":1,"method":"m"}'), async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
  });

  it('never answers notifications or client responses', async () => {
    expect(await roundTrip('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toBeUndefined();
    expect(await roundTrip('{"jsonrpc":"2.0","method":"fail"}')).toBeUndefined();
    expect(await roundTrip('{"jsonrpc":"2.0","id":3,"result":{}}')).toBeUndefined();
  });

  it('answers batches in order, leaving out notifications; an empty batch is one error', async () => {
    const answers = (await roundTrip(
      '[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"},1,{"jsonrpc":"2.0","id":"x","method":"fail"}]',
    )) as Array<{ id: unknown }>;
    expect(answers.map((a) => a.id)).toEqual([1, null, 'x']);
    expect(await roundTrip('[{"jsonrpc":"2.0","method":"n"}]')).toBeUndefined();
    expect(await roundTrip('[]')).toMatchObject({ id: null, error: { code: RpcCode.InvalidRequest } });
  });
});

describe('MCP methods', () => {
  const calls: string[] = [];
  const guard: CallGuard = {
    run: {},
    before: async (c) => {
      calls.push(`before ${c}`);
    },
    after: async (c) => {
      calls.push(`after ${c}`);
    },
  };
  const tool = (isError: boolean): Tool => ({
    name: isError ? 'fails' : 'works',
    title: '',
    description: '',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object' },
    counter: 'mcp_code_executions',
    call: async () => ({ content: [{ type: 'text', text: 'x' }], ...(isError ? { isError: true } : {}) }),
  });
  const server = new McpServer([tool(false), tool(true)]);

  it('negotiates the protocol version', async () => {
    expect(await server.handle('initialize', { protocolVersion: '2025-03-26' }, guard)).toMatchObject({
      protocolVersion: '2025-03-26',
      capabilities: { tools: {} },
    });
    expect(await server.handle('initialize', { protocolVersion: '1999-01-01' }, guard)).toMatchObject({
      protocolVersion: PROTOCOL_VERSIONS[0],
    });
    await expect(server.handle('initialize', {}, guard)).rejects.toMatchObject({ code: RpcCode.InvalidParams });
  });

  it('maps unknown methods, unknown tools and a missing name to the right codes', async () => {
    await expect(server.handle('nope', undefined, guard)).rejects.toMatchObject({ code: RpcCode.MethodNotFound });
    await expect(server.handle('tools/call', { name: 'nope' }, guard)).rejects.toMatchObject({ code: RpcCode.InvalidParams });
    await expect(server.handle('tools/call', { arguments: {} }, guard)).rejects.toMatchObject({ code: RpcCode.InvalidParams });
    await expect(server.handle('tools/call', ['works'], guard)).rejects.toMatchObject({ code: RpcCode.InvalidParams });
    expect(await server.handle('ping', undefined, guard)).toEqual({});
  });

  it('meters only calls whose result is not an error', async () => {
    calls.length = 0;
    await server.handle('tools/call', { name: 'works' }, guard);
    await server.handle('tools/call', { name: 'fails' }, guard);
    expect(calls).toEqual(['before mcp_code_executions', 'after mcp_code_executions', 'before mcp_code_executions']);
  });
});
