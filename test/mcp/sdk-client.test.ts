import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { CATALOGUE } from '../../src/mcp/problems/catalogue/index.js';
import { referenceCode } from '../../src/mcp/problems/source.js';
import { startTestService } from '../support/service.js';
import { createApiKey } from './keys.js';
import { connectClient } from './support.js';

let service: Service;
let client: Client;
beforeAll(async () => {
  service = await startTestService();
  client = await connectClient(service, await createApiKey(service));
});
afterAll(async () => {
  await client?.close();
  await service?.close();
});

interface Problem {
  family: string;
  functionNames: Record<string, string>;
  testCases: Array<{ args: Record<string, unknown>; expected: unknown }>;
}

it('initializes with the official SDK client over Streamable HTTP', () => {
  expect(client.getServerVersion()).toMatchObject({ name: 'code-runner' });
  expect(client.getServerCapabilities()).toEqual({ tools: {} });
});

it('lists both tools with input and output schemas', async () => {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(['execute_code', 'generate_problem']);
  const execute = tools.find((t) => t.name === 'execute_code');
  expect(execute?.inputSchema.required).toEqual(expect.arrayContaining(['code', 'language', 'testCases']));
  expect(execute?.outputSchema?.properties).toHaveProperty('results');
});

it('generates a problem and runs a solution against its test cases', async () => {
  // The SDK validates structuredContent against each outputSchema; listing first loads them.
  await client.listTools();
  const generated = await client.callTool({ name: 'generate_problem', arguments: { topic: 'graphs', difficulty: 'easy', seed: 5 } });
  expect(generated.isError).toBeFalsy();
  const problem = generated.structuredContent as unknown as Problem;
  const family = CATALOGUE.find((f) => f.id === problem.family);
  if (!family) throw new Error(`unknown family ${problem.family}`);

  for (const language of ['python', 'typescript'] as const) {
    const run = await client.callTool({
      name: 'execute_code',
      arguments: { code: referenceCode(family, language), language, functionNames: problem.functionNames, testCases: problem.testCases },
    });
    expect(run.isError).toBeFalsy();
    expect(run.structuredContent).toMatchObject({
      language,
      timedOut: false,
      passed: problem.testCases.length,
      total: problem.testCases.length,
    });
    expect((run.content as Array<{ text: string }>)[0].text).toMatch(
      new RegExp(`^${problem.testCases.length}/${problem.testCases.length} passed`),
    );
  }

  const wrong = await client.callTool({
    name: 'execute_code',
    arguments: { code: 'function wrong() { return null; }', language: 'javascript', jsFunctionName: 'wrong', testCases: problem.testCases },
  });
  expect(wrong.isError).toBeFalsy();
  expect(wrong.structuredContent).toMatchObject({ passed: 0 });
});
