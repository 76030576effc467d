import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The Docker API calls the proxy can refuse: a container's kill, and its removal (DELETE, force or not). */
export type RefusableCall = 'kill' | 'remove';

const KILL = /^(?:\/v[\d.]+)?\/containers\/[^/]+\/kill(?:\?|$)/;
const INSPECT = /^(?:\/v[\d.]+)?\/containers\/[^/]+\/json(?:\?|$)/;
const REMOVE = /^(?:\/v[\d.]+)?\/containers\/[^/?]+(?:\?|$)/;
const LOG_LINES = 400;

function callOf(request: http.IncomingMessage): RefusableCall | undefined {
  const url = request.url ?? '';
  if (request.method === 'POST' && KILL.test(url)) return 'kill';
  if (request.method === 'DELETE' && REMOVE.test(url)) return 'remove';
  return undefined;
}

/**
 * An HTTP proxy on a unix socket in front of the real Docker socket (the service's DOCKER_SOCKET
 * points at it). It passes every request through to dockerd (streams and the attach hijack
 * included), except the calls it is told to refuse: those get the 500 and the `{"message": …}` body
 * that dockerd sends when it cannot do something. It can also keep OOM kills from the client, as an
 * engine that never heard of them (gVisor's) does. It logs every request, for a failing test to print.
 */
export class RefusingDockerProxy {
  readonly path = path.join(os.tmpdir(), `docker-refusing-${randomBytes(4).toString('hex')}.sock`);
  readonly refusedCount: Record<RefusableCall, number> = { kill: 0, remove: 0 };
  private refusing = new Set<RefusableCall>();
  private oomHidden = false;
  private readonly lines: string[] = [];
  private readonly startedAt = Date.now();
  private readonly sockets = new Set<net.Socket>();
  private readonly server = http.createServer((request, response) => this.handle(request, response));

  constructor(private readonly target = '/var/run/docker.sock') {
    this.server.on('upgrade', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => this.tunnel(request, client, head));
    this.server.on('connection', (socket: net.Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async up(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(this.path, resolve));
  }

  async down(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.path, { force: true });
  }

  /** From now on, answers these calls 500 instead of passing them on. */
  refuse(...calls: RefusableCall[]): void {
    this.refusing = new Set(calls);
    this.note(`-- refusing ${calls.join(' and ')} from now on`);
  }

  /** From now on, every container inspected reads `OOMKilled: false`, whatever the engine recorded. */
  hideOomKills(): void {
    this.oomHidden = true;
    this.note('-- hiding OOM kills from now on');
  }

  /** Passes everything through again. */
  accept(): void {
    this.refusing.clear();
    this.note('-- accepting everything again');
  }

  /** The last requests and what became of them, one per line with the ms since the proxy started. */
  log(): string {
    return this.lines.join('\n');
  }

  private note(line: string): void {
    this.lines.push(`${String(Date.now() - this.startedAt).padStart(7)} ms ${line}`);
    if (this.lines.length > LOG_LINES) this.lines.splice(0, this.lines.length - LOG_LINES);
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const call = callOf(request);
    if (call && this.refusing.has(call)) {
      this.refusedCount[call] += 1;
      this.note(`${request.method} ${request.url} → 500 refused`);
      request.resume();
      const body = JSON.stringify({ message: `the test proxy refuses container ${call} requests for now` });
      response.writeHead(500, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      response.end(body);
      return;
    }
    const upstream = http.request(
      { socketPath: this.target, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        this.note(`${request.method} ${request.url} → ${answer.statusCode}`);
        if (this.oomHidden && request.method === 'GET' && INSPECT.test(request.url ?? '')) return this.withoutOom(answer, response);
        response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(response);
      },
    );
    upstream.on('error', (error) => {
      this.note(`${request.method} ${request.url} → upstream error ${error.message}`);
      response.destroy(error);
    });
    response.on('close', () => upstream.destroy());
    request.pipe(upstream);
  }

  private withoutOom(answer: http.IncomingMessage, response: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    answer.on('data', (chunk: Buffer) => chunks.push(chunk));
    answer.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text.replace(/"OOMKilled":true/g, '"OOMKilled":false');
      if (body !== text) this.note('   OOMKilled: true hidden');
      response.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    });
  }

  /**
   * The attach hijack (Connection: Upgrade): the request is replayed to dockerd and the bytes piped
   * both ways. Its small JSON body goes in the same write as its head, as the client itself sends
   * them: dockerd drops what it buffered with the head when it hijacks, but reads a body that comes
   * later as the container's stdin.
   */
  private tunnel(request: http.IncomingMessage, client: net.Socket, head: Buffer): void {
    this.note(`${request.method} ${request.url} → upgraded`);
    const upstream = net.connect(this.target);
    this.sockets.add(upstream);
    upstream.on('close', () => this.sockets.delete(upstream));
    for (const socket of [client, upstream]) socket.on('error', () => undefined);
    const lines = [`${request.method} ${request.url} HTTP/1.1`];
    for (let i = 0; i < request.rawHeaders.length; i += 2) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
    const bodyLength = Number(request.headers['content-length'] ?? 0);
    let received = head;
    const send = () => {
      client.pause();
      client.off('data', collect);
      upstream.write(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), received]));
      client.pipe(upstream).pipe(client);
    };
    const collect = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= bodyLength) send();
    };
    if (received.length >= bodyLength) send();
    else client.on('data', collect);
  }
}
