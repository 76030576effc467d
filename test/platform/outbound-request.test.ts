import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundRefused, outboundRequest } from '../../src/platform/index.js';

const LOOPBACK = '127.0.0.0/8,::1/128';
const base = { method: 'GET' as const, timeoutMs: 2000, maxBytes: 1024, allowedNetworks: LOOPBACK };

/** A receiver on loopback (IPv4 and IPv6) that answers by path and remembers the bodies posted to it. */
function startReceiver() {
  const received: Array<{ method?: string; body: Buffer; headers: http.IncomingHttpHeaders }> = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method, body: Buffer.concat(chunks), headers: request.headers });
      if (request.url === '/redirect') return response.writeHead(302, { location: '/hello' }).end();
      if (request.url === '/big') return response.end(Buffer.alloc(4096, 'x'));
      if (request.url === '/stream') {
        // No content-length: the cap must hold while the body streams in.
        response.writeHead(200);
        for (let i = 0; i < 8; i++) response.write(Buffer.alloc(512, 'y'));
        return response.end();
      }
      if (request.url === '/slow') return void setTimeout(() => response.end('late'), 1500);
      response.end('hello');
    });
  });
  return {
    received,
    listen: () => new Promise<number>((resolve) => server.listen(0, '::', () => resolve((server.address() as AddressInfo).port))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const receiver = startReceiver();
let port: number;

beforeAll(async () => {
  port = await receiver.listen();
});
afterAll(() => receiver.close());

async function refusal(promise: Promise<unknown>): Promise<OutboundRefused> {
  const error = await promise.then(
    (answer) => new Error(`expected a refusal, got ${JSON.stringify(answer)}`),
    (error: unknown) => error,
  );
  if (!(error instanceof OutboundRefused)) throw error;
  return error;
}

describe('address guard', () => {
  it('refuses loopback by name, without reaching the server', async () => {
    const before = receiver.received.length;
    const error = await refusal(outboundRequest(`http://localhost:${port}/hello`, { ...base, allowedNetworks: '' }));
    expect(error.message).toMatch(/^address (127\.0\.0\.1|::1) is loopback; allow it with OUTBOUND_ALLOWED_NETWORKS$/);
    expect(error.reason).toBe('address');
    expect(receiver.received.length).toBe(before);
  });

  it.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://10.1.2.3/', 'private'],
    ['http://172.20.0.1/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://169.254.169.254/latest/meta-data', 'link-local'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://[::1]/', 'loopback'],
    ['http://[::]/', 'unspecified'],
    ['http://[fd00::1]/', 'private'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:a00:1]/', 'private'],
    ['http://2130706433/', 'loopback'], // the URL parser reads a bare number as 127.0.0.1
  ])('refuses the literal %s as %s', async (url, range) => {
    expect((await refusal(outboundRequest(url, { ...base, allowedNetworks: '' }))).message).toContain(`is ${range};`);
  });

  it('refuses a private address even when only loopback is allowed', async () => {
    expect((await refusal(outboundRequest('http://10.0.0.1/', base))).message).toContain('is private');
  });

  it('reaches loopback when 127.0.0.0/8 is allowed', async () => {
    const answer = await outboundRequest(`http://127.0.0.1:${port}/hello`, { ...base, allowedNetworks: '127.0.0.0/8' });
    expect([answer.status, answer.body.toString()]).toEqual([200, 'hello']);
  });

  it('reaches ::1 only when IPv6 loopback is allowed', async () => {
    await refusal(outboundRequest(`http://[::1]:${port}/hello`, { ...base, allowedNetworks: '127.0.0.0/8' }));
    const answer = await outboundRequest(`http://[::1]:${port}/hello`, { ...base, allowedNetworks: '::1/128' });
    expect(answer.body.toString()).toBe('hello');
  });

  it('refuses schemes other than http and https', async () => {
    expect((await refusal(outboundRequest('file:///etc/passwd', base))).reason).toBe('scheme');
    expect((await refusal(outboundRequest('ftp://example.com/', base))).reason).toBe('scheme');
  });

  it('rejects a malformed allowed-network list', async () => {
    await expect(outboundRequest(`http://127.0.0.1:${port}/`, { ...base, allowedNetworks: '127.0.0.0/33' })).rejects.toThrow(
      /not an address or a CIDR/,
    );
  });
});

describe('exchange', () => {
  it('returns a redirect as is, without following it', async () => {
    const before = receiver.received.length;
    const answer = await outboundRequest(`http://127.0.0.1:${port}/redirect`, base);
    expect([answer.status, answer.headers.location]).toEqual([302, '/hello']);
    expect(receiver.received.length).toBe(before + 1);
  });

  it('delivers a POST body intact', async () => {
    const body = JSON.stringify({ text: 'é, ü and 🎉', list: [1, 2, 3] });
    const answer = await outboundRequest(`http://127.0.0.1:${port}/hook`, {
      ...base,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': 'abc' },
      body,
    });
    expect(answer.status).toBe(200);
    const last = receiver.received.at(-1);
    expect(last?.method).toBe('POST');
    expect(last?.body.toString('utf8')).toBe(body);
    expect(last?.headers['x-signature']).toBe('abc');
    expect(last?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
  });

  it('refuses a body declared larger than the cap', async () => {
    expect((await refusal(outboundRequest(`http://127.0.0.1:${port}/big`, base))).reason).toBe('too-large');
  });

  it('refuses a streamed body once it passes the cap', async () => {
    const error = await refusal(outboundRequest(`http://127.0.0.1:${port}/stream`, base));
    expect([error.reason, error.message]).toEqual(['too-large', 'the response body is larger than 1024 bytes']);
    const answer = await outboundRequest(`http://127.0.0.1:${port}/stream`, { ...base, maxBytes: 4096 });
    expect(answer.body.length).toBe(4096);
  });

  it('gives up when the whole exchange takes longer than the time cap', async () => {
    const started = Date.now();
    const error = await refusal(outboundRequest(`http://127.0.0.1:${port}/slow`, { ...base, timeoutMs: 300 }));
    expect([error.reason, error.message]).toEqual(['timeout', 'no complete answer within 300 ms']);
    expect(Date.now() - started).toBeLessThan(1200);
  });

  it("stops with the caller's reason when the caller aborts", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('shutting down')), 100);
    await expect(outboundRequest(`http://127.0.0.1:${port}/slow`, { ...base, signal: controller.signal })).rejects.toThrow('shutting down');
  });
});
