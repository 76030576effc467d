import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Service } from '../../src/service.js';

export interface RpcReply {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

/** POSTs to /api/mcp; a string body goes byte for byte. */
export async function postMcp(service: Service, body: unknown, headers: Record<string, string> = {}): Promise<RpcReply> {
  const response = await fetch(`${service.url}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

export function request(method: string, params?: Record<string, unknown>, id: string | number = 1) {
  return { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) };
}

/** The official SDK client over Streamable HTTP, authenticated with an API key. */
export async function connectClient(service: Service, apiKey: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${service.url}/api/mcp`), {
    requestInit: { headers: { 'x-api-key': apiKey } },
  });
  await client.connect(transport);
  return client;
}
