import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { startTestService } from '../support/service.js';
import { createApiKey } from './keys.js';
import { postMcp, request } from './support.js';

let service: Service;
let key: Record<string, string>;
beforeAll(async () => {
  service = await startTestService({ EXECUTION_TIMEOUT_MS: '3000' });
  key = { 'x-api-key': await createApiKey(service) };
});
afterAll(async () => {
  await service?.close();
});

const rpc = (body: unknown, headers: Record<string, string> = {}) => postMcp(service, body, { ...key, ...headers });

interface ToolReply {
  result: { content: Array<{ text: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };
}

async function callTool(name: string, args: unknown): Promise<ToolReply['result']> {
  const reply = await rpc(request('tools/call', { name, arguments: args }));
  expect(reply.status).toBe(200);
  return (reply.body as ToolReply).result;
}

describe('JSON-RPC over HTTP', () => {
  it('answers a parse error with -32700, id null, HTTP 200', async () => {
    for (const text of ['{"jsonrpc": "2.0", "id": 1, "method": ', '', 'nope']) {
      const reply = await rpc(text);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(reply.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    }
  });

  it('answers -32600 for a message that is not JSON-RPC 2.0', async () => {
    expect((await rpc({ id: 1, method: 'ping' })).body).toMatchObject({ id: 1, error: { code: -32600 } });
    expect((await rpc({ jsonrpc: '2.0', id: 2 })).body).toMatchObject({ id: 2, error: { code: -32600 } });
    expect((await rpc('"ping"')).body).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('answers -32601 for an unknown method and -32602 for bad params', async () => {
    expect((await rpc(request('tools/destroy', {}, 'x'))).body).toMatchObject({ id: 'x', error: { code: -32601 } });
    expect((await rpc(request('tools/call', { name: 'no_such_tool', arguments: {} }))).body).toMatchObject({ error: { code: -32602 } });
    expect((await rpc(request('tools/call', { arguments: {} }))).body).toMatchObject({ error: { code: -32602 } });
    expect((await rpc(request('initialize', {}))).body).toMatchObject({ error: { code: -32602 } });
  });

  it('echoes ids exactly, strings and numbers', async () => {
    expect((await rpc('{"jsonrpc":"2.0","id":90071992547409931,"method":"ping"}')).text).toBe(
      '{"jsonrpc":"2.0","id":90071992547409931,"result":{}}',
    );
    expect((await rpc(request('ping', undefined, 'abc'))).body).toEqual({ jsonrpc: '2.0', id: 'abc', result: {} });
  });

  it('answers a notification with 202 and no body', async () => {
    const reply = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(reply.status).toBe(202);
    expect(reply.text).toBe('');
  });

  it('answers a batch as an array in order, skipping notifications; all notifications give 202', async () => {
    const reply = await rpc([
      request('ping', undefined, 1),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      request('nope', undefined, 2),
      request('tools/list', undefined, 3),
    ]);
    expect(reply.status).toBe(200);
    const answers = reply.body as Array<{ id: number; result?: unknown; error?: { code: number } }>;
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3]);
    expect(answers[1].error?.code).toBe(-32601);
    expect((answers[2].result as { tools: unknown[] }).tools).toHaveLength(2);
    expect((await rpc([{ jsonrpc: '2.0', method: 'notifications/initialized' }])).status).toBe(202);
  });

  it('negotiates the protocol version', async () => {
    expect(
      (await rpc(request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } }))).body,
    ).toMatchObject({ result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'code-runner' } } });
    expect(
      (await rpc(request('initialize', { protocolVersion: '2030-01-01', capabilities: {}, clientInfo: { name: 't', version: '1' } }))).body,
    ).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
  });

  it('answers GET and DELETE with 405 and Allow: POST, whatever the credentials', async () => {
    for (const method of ['GET', 'DELETE']) {
      for (const credentials of [key, {}, { 'x-api-key': 'svc_live_bogus' }]) {
        const response = await fetch(`${service.url}/api/mcp`, { method, headers: { ...credentials, accept: 'text/event-stream' } });
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
        expect(await response.json()).toHaveProperty('error');
      }
    }
  });

  it('rejects an unsupported MCP-Protocol-Version header and an Accept without JSON', async () => {
    expect((await rpc(request('ping'), { 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
    expect((await rpc(request('ping'), { accept: 'text/event-stream' })).status).toBe(406);
  });
});

describe('tools over HTTP', () => {
  it('reports bad execute_code arguments as a tool error naming the field', async () => {
    const missing = await callTool('execute_code', { code: 'def f(x):\n    return x\n', language: 'python' });
    expect(missing.isError).toBe(true);
    expect(missing.content[0].text).toMatch(/testCases/);
    const badArgs = await callTool('execute_code', {
      code: 'def f(x):\n    return x\n',
      language: 'python',
      testCases: [{ args: [1], expected: 1 }],
    });
    expect(badArgs.content[0].text).toMatch(/testCases\.0\.args/);
    const language = await callTool('execute_code', { code: 'x', language: 'cobol', testCases: [{ args: {}, expected: 1 }] });
    expect(language.isError).toBe(true);
    expect(language.content[0].text).toMatch(/language/);
  });

  it('runs code and reports per-case results with lossless numbers', async () => {
    const result = await callTool('execute_code', {
      code: 'def f(x):\n    return x * 2\n',
      language: 'python',
      testCases: [
        { args: { x: 2 }, expected: 4 },
        { args: { x: 3 }, expected: 7 },
      ],
    });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({
      language: 'python',
      timedOut: false,
      passed: 1,
      total: 2,
      results: [
        { passed: true, actual: 4 },
        { passed: false, actual: 6 },
      ],
    });
    expect(result.content[0].text).toMatch(/^1\/2 passed/);
    expect(result.content[0].text).toContain('expected 7, got 6');
    const exact = await rpc(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"execute_code","arguments":{"code":"def f(x):\\n    return x\\n","language":"python","testCases":[{"args":{"x":12345678901234567890},"expected":12345678901234567890},{"args":{"x":2.50},"expected":2.5}]}}}',
    );
    expect(exact.text).toContain('"actual":12345678901234567890');
    expect(exact.text).toContain('"passed":2');
  });

  // The reason the JSON-RPC layer is hand-written (docs/mcp.md, "Why not the SDK's server classes"):
  // read with JSON.parse, 3.0 would reach Python as an int and the 23-digit integer as a float, so
  // the first two cases would fail and the third, which expects an int, would pass.
  it('keeps number texts exactly: 3.0 reaches the code as a float, big integers stay exact', async () => {
    const reply = await rpc(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"execute_code","arguments":{"code":"def f(x):\\n    return [type(x).__name__, x]\\n","language":"python","testCases":[{"args":{"x":3.0},"expected":["float",3.0]},{"args":{"x":12345678901234567890123},"expected":["int",12345678901234567890123]},{"args":{"x":3.0},"expected":["int",3.0]}]}}}',
    );
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('"passed":2,"total":3');
    expect(reply.text).toContain('"input":{"x":3.0},"expected":["float",3.0],"actual":["float",3.0]');
    expect(reply.text).toContain('"actual":["int",12345678901234567890123]');
    expect((reply.body as ToolReply).result.content[0].text).toContain('✗ case 3: expected ["int",3.0], got ["float",3.0]');
  });

  it('reports a timed-out execution as a tool error with the partial results', async () => {
    const result = await callTool('execute_code', {
      code: 'def f(x):\n    while True:\n        pass\n',
      language: 'python',
      testCases: [{ args: { x: 1 }, expected: 1 }],
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ timedOut: true, passed: 0, total: 1 });
    expect(result.content[0].text).toMatch(/timed out/);
  });

  it('generates the same problem for the same arguments and another for another seed', async () => {
    const args = { topic: 'strings', difficulty: 'easy', seed: 77 };
    const first = await callTool('generate_problem', args);
    const again = await callTool('generate_problem', args);
    expect(first.isError).toBeUndefined();
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(again.content).toEqual(first.content);
    const other = await callTool('generate_problem', { ...args, seed: 78 });
    expect(other.structuredContent).not.toEqual(first.structuredContent);
    expect(first.structuredContent?.topics).toContain('strings');
  });

  it('reports bad generate_problem arguments and unknown topics as tool errors', async () => {
    const topic = await callTool('generate_problem', { topic: 'astrology' });
    expect(topic.isError).toBe(true);
    expect(topic.content[0].text).toMatch(/topic.*known topics: .*graphs/s);
    const difficulty = await callTool('generate_problem', { difficulty: 'extreme' });
    expect(difficulty.content[0].text).toMatch(/difficulty/);
    const typo = await callTool('generate_problem', { dificulty: 'easy' });
    expect(typo.content[0].text).toMatch(/dificulty/);
    const languages = await callTool('generate_problem', { languages: ['python', 'ruby'] });
    expect(languages.content[0].text).toMatch(/languages\.1/);
  });

  it('limits the problem to the requested languages', async () => {
    const result = await callTool('generate_problem', { topic: 'two-sum', languages: ['typescript'] });
    expect(Object.keys(result.structuredContent?.starterCode as object)).toEqual(['typescript']);
    expect(result.structuredContent?.functionNames).toEqual({ typescript: 'twoSum' });
  });
});
