import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { SandboxError } from '../web/errors.js';

export interface RunnerAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RunnerCall {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * The runner tier could not be reached, or the exchange broke (502); the message names what failed
 * ("connect ECONNREFUSED"). For the api node the runner tier is its runner stage.
 */
export class HopError extends SandboxError {
  constructor(
    /** What failed, without the stage: "connect ECONNREFUSED". */
    readonly reason: string,
    /** Whether the request was never completely written: the runner node cannot have read it, so no job can have started. */
    readonly unsent: boolean,
    options?: { cause?: unknown },
  ) {
    super('runner', reason, options);
  }
}

/** Longest answer read from a runner node: its result budget plus the echoed request, with room to spare. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/**
 * An idle keep-alive connection is closed after this, well before a runner node's own idle timeout
 * (fastify's 72 s), so the api node never sends on a connection the runner node is closing for idleness.
 */
const IDLE_SOCKET_MS = 4_000;

/**
 * HTTP to RUNNER_URL (one address: a load balancer or a Kubernetes Service) over kept-alive
 * connections, with the runner token. node:http rather than fetch: it tells whether the request
 * was completely written before a connection failed, which decides whether a retry is safe.
 */
export class RunnerClient {
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;

  constructor(
    private readonly base: URL,
    private readonly token: string,
  ) {
    this.transport = base.protocol === 'https:' ? https : http;
    this.agent = new this.transport.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' });
  }

  /** One exchange; a failure is a HopError, an abort rejects with the signal's reason. */
  send({ method, path, body, headers = {}, signal }: RunnerCall): Promise<RunnerAnswer> {
    return new Promise<RunnerAnswer>((resolve, reject) => {
      signal?.throwIfAborted();
      const request = this.transport.request(new URL(path, this.base), {
        method,
        agent: this.agent,
        headers: {
          ...headers,
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      });
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', abort);
        request.destroy();
        if (signal?.aborted) return reject(signal.reason);
        const cause = error as NodeJS.ErrnoException;
        reject(
          new HopError(`${[cause.syscall, cause.code ?? cause.message].filter(Boolean).join(' ')}`, !request.writableFinished, {
            cause,
          }),
        );
      };
      const abort = () => fail(signal?.reason);
      signal?.addEventListener('abort', abort, { once: true });
      request.on('error', fail);
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) fail(new Error(`answer larger than ${MAX_ANSWER_BYTES} bytes`));
          else chunks.push(chunk);
        });
        response.on('error', fail);
        response.on('aborted', () => fail(new Error('connection lost while reading the answer')));
        response.on('end', () => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener('abort', abort);
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') });
        });
      });
      request.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
