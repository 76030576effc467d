// An api node in front of a runner node answers exactly as the single node does, and the runner node's
// internal endpoint takes only callers with the runner token.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiNode, RunnerNode, Service } from '../../src/service.js';
import { startTestService } from '../support/service.js';
import { keyOn, post, startApi, startRunner, TOKEN, withoutRuntimes } from './support.js';

let runner: RunnerNode;
let api: ApiNode;
let single: Service;

beforeAll(async () => {
  runner = await startRunner();
  api = await startApi(runner.url);
  single = await startTestService();
});
afterAll(async () => {
  await Promise.all([api?.close(), single?.close()]);
  await runner?.close();
});

const ADD_PY = 'def add(a, b):\n    print("adding", a, b)\n    return a + b\n';
const SAME_ANSWER_CASES: Array<[string, unknown]> = [
  [
    'ints, a float and a type error',
    {
      language: 'python',
      code: ADD_PY,
      testCases: [
        { args: { a: 1, b: 2 }, expected: 3 },
        { args: { a: 0.1, b: 0.2 }, expected: 0.3 },
        { args: { a: 'x', b: 1 }, expected: null },
      ],
    },
  ],
  // numbers as text: 3.0 stays a float, integers beyond 2^53 stay exact, both ways
  [
    'exact numbers',
    '{"language":"py","code":"def f(x, y):\\n    return [x, y, type(x).__name__, y * 10]\\n","testCases":[{"args":{"x":3.0,"y":123456789012345678901234567890},"expected":[3.0,123456789012345678901234567890,"float",1234567890123456789012345678900]},{"args":{"x":1e400,"y":-0},"expected":null}]}',
  ],
  [
    'javascript with output and an exception',
    {
      language: 'javascript',
      code: 'function f(n) { console.log("n =", n); if (n > 1) throw new RangeError("too big"); return { n, big: 2 ** 60 }; }',
      testCases: [
        { args: { n: 1 }, expected: { n: 1, big: 1152921504606846976 } },
        { args: { n: 2 }, expected: null },
      ],
    },
  ],
  [
    'a typescript syntax error',
    { language: 'ts', code: 'function f(a: number { return a }', testCases: [{ args: { a: 1 }, expected: 1 }] },
  ],
  [
    'a case over its own time limit',
    {
      language: 'python',
      caseTimeoutMs: 300,
      code: 'import time\ndef f(s):\n    time.sleep(s)\n    return s\n',
      testCases: [
        { args: { s: 0 }, expected: 0 },
        { args: { s: 5 }, expected: 5 },
        { args: { s: 0.01 }, expected: 0.01 },
      ],
    },
  ],
  [
    'a large return value',
    { language: 'python', code: 'def f(n):\n    return ["é" * 10] * n\n', testCases: [{ args: { n: 3000 }, expected: [] }] },
  ],
  ['no function found', { language: 'javascript', functionName: 'missing', code: 'const x = 1;', testCases: [{ args: {}, expected: 1 }] }],
  ['400: invalid fields', { language: 'python', code: '', testCases: [] }],
  ['400: malformed JSON', '{"language": "python", "code": '],
  [
    '400: too deep',
    {
      language: 'python',
      code: 'def f(x): return x',
      testCases: [{ args: { x: JSON.parse('['.repeat(300) + ']'.repeat(300)) }, expected: 1 }],
    },
  ],
  ['422: another language', { language: 'cobol', code: 'x', testCases: [{ args: {}, expected: 1 }] }],
];

describe('an api node in front of a runner node', () => {
  it.each(SAME_ANSWER_CASES)('answers %s exactly as the single node does', async (_name, body) => {
    const [viaApi, direct] = await Promise.all([
      post(`${api.url}/api/v1/code/execute`, body),
      post(`${single.url}/api/v1/code/execute`, body),
    ]);
    expect(viaApi.status, viaApi.text).toBe(direct.status);
    expect(withoutRuntimes(viaApi.text)).toBe(withoutRuntimes(direct.text));
    expect(viaApi.headers.get('content-type')).toBe(direct.headers.get('content-type'));
  });

  it('lists the same languages and sandbox as the runner nodes report', async () => {
    const [viaApi, direct] = await Promise.all([
      fetch(`${api.url}/api/v1/code/languages`).then((r) => r.json()),
      fetch(`${single.url}/api/v1/code/languages`).then((r) => r.json()),
    ]);
    expect(viaApi).toEqual(direct);
  });

  it('runs MCP execute_code on the runner node, with the same result as the single node', async () => {
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'execute_code',
        arguments: {
          language: 'python',
          code: ADD_PY,
          testCases: [
            { args: { a: 2, b: 3.5 }, expected: 5.5 },
            { args: { a: 1, b: 1 }, expected: 3 },
          ],
        },
      },
    };
    const headers = { accept: 'application/json' };
    const [viaApi, direct] = await Promise.all([
      post(`${api.url}/api/mcp`, call, { ...headers, 'x-api-key': await keyOn(api, 'tier-mcp') }),
      post(`${single.url}/api/mcp`, call, { ...headers, 'x-api-key': await keyOn(single, 'tier-mcp') }),
    ]);
    expect(viaApi.status, viaApi.text).toBe(200);
    expect(withoutRuntimes(viaApi.text)).toBe(withoutRuntimes(direct.text));
    expect(viaApi.text).toContain('1/2 passed (python)');
  });

  it('is ready while the runner node is; both nodes count executions, the api node the hop', async () => {
    const ready = await fetch(`${api.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { runner: 'ok' } });
    const metrics = await (await fetch(`${runner.url}/metrics`)).text();
    expect(metrics).toMatch(/code_runner_executions_total\{language="python",outcome="(passed|failed)"\} [1-9]/);
    // the api node measures what the hop added to each execution it sent
    const apiMetrics = await (await fetch(`${api.url}/metrics`)).text();
    expect(apiMetrics).toMatch(/code_runner_phase_seconds_count\{phase="hop"\} [1-9]/);
  });
});

describe("a runner node's internal endpoint", () => {
  const body = JSON.stringify({ language: 'python', code: 'def f():\n    return 1\n', testCases: [{ args: {}, expected: 1 }] });
  const execute = (authorization?: string) =>
    post(`${runner.url}/internal/v1/execute`, body, authorization === undefined ? {} : { authorization });

  it('refuses a missing or wrong token with 401, before reading the body', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
      const reply = await execute(authorization);
      expect(reply.status, `${authorization}: ${reply.text}`).toBe(401);
      expect(JSON.parse(reply.text).error).toMatch(/runner token/);
    }
    const languages = await fetch(`${runner.url}/internal/v1/languages`);
    expect(languages.status).toBe(401);
  });

  it('runs an execution for a caller with the token', async () => {
    const reply = await execute(`Bearer ${TOKEN}`);
    expect(reply.status, reply.text).toBe(200);
    expect(JSON.parse(reply.text).results[0]).toMatchObject({ passed: true, actual: 1 });
    expect(JSON.parse(reply.headers.get('x-runner-execution') ?? '')).toMatchObject({ status: 'completed', language: 'python' });
  });

  it('serves no /api route and keeps no data folder; the api node does not document the internal endpoint', async () => {
    for (const url of ['/api/v1/code/execute', '/api/v1/code/languages', '/api/mcp', '/api/v1/openapi.json']) {
      expect((await fetch(`${runner.url}${url}`, { method: url.includes('execute') ? 'POST' : 'GET' })).status, url).toBe(404);
    }
    expect((await fetch(`${runner.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${runner.url}/readyz`)).status).toBe(200);
    expect(existsSync(runner.config.DATA_DIR), 'a runner node created DATA_DIR').toBe(false);
    const openapi = await (await fetch(`${api.url}/api/v1/openapi.json`)).text();
    expect(openapi).not.toContain('/internal/');
    expect((await fetch(`${api.url}/internal/v1/languages`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });
});
