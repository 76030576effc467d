import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver saw it, body untouched (a signature is computed over the raw bytes). */
export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** When it arrived, in milliseconds since the epoch. */
  at: number;
}

/** How the receiver answers one request. */
interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Waits this long before answering (a slow or hanging receiver). */
  delayMs?: number;
}

export interface WebhookReceiver {
  /** Base URL, `http://127.0.0.1:<port>`; any path is accepted. */
  url: string;
  /** Every request received, in order of arrival. */
  received: ReceivedRequest[];
  /** The next requests get these answers, one each, in order; after them, `200 ok` again. Calls add to the queue. */
  answerNext(...replies: Array<number | Reply>): void;
  /** Resolves with the received requests once there are at least `count`; fails after `timeoutMs` saying what did arrive. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A real HTTP server on loopback that records what it is sent and answers as told. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const queued: Reply[] = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
        at: Date.now(),
      });
      for (const wake of waiters) wake();
      const reply = queued.shift() ?? { status: 200, body: 'ok' };
      const send = () => {
        if (!response.destroyed) response.writeHead(reply.status, reply.headers).end(reply.body ?? '');
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answerNext: (...replies) => queued.push(...replies.map((reply) => (typeof reply === 'number' ? { status: reply } : reply))),
    waitFor: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          finish();
          resolve(received);
        };
        const timer = setTimeout(() => {
          finish();
          const seen = received.map((r) => `${r.method} ${r.path} ${r.body.toString().slice(0, 200)}`).join('\n  ');
          reject(new Error(`the receiver got ${received.length} of ${count} requests within ${timeoutMs} ms:\n  ${seen}`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
