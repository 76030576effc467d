import { lookup as resolveHost } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type BlockList, type LookupFunction } from 'node:net';
import { parseNetworks, reservedRange } from './address-policy.js';

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

interface OutboundRequestOptions {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Cap on the whole exchange: resolution, connection, request and the full response body. */
  timeoutMs: number;
  /** Cap on the response body. */
  maxBytes: number;
  /** Comma-separated CIDRs that may be reached although reserved (e.g. `127.0.0.0/8,::1/128` in tests). */
  allowedNetworks: string;
  signal?: AbortSignal;
}

/** Why a request was refused: callers decide from it whether trying again could help (only `timeout` might). */
type RefusalReason = 'scheme' | 'address' | 'too-large' | 'timeout';

/** The request was not made or not finished because a guard refused it: address not allowed, bad scheme, too large, timed out. */
export class OutboundRefused extends Error {
  constructor(
    message: string,
    readonly reason: RefusalReason,
  ) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

function checkAddress(address: string, allowed: BlockList): void {
  const range = reservedRange(address, allowed);
  if (range) throw new OutboundRefused(`address ${address} is ${range}; allow it with OUTBOUND_ALLOWED_NETWORKS`, 'address');
}

/**
 * Resolves like the default lookup but refuses when any resolved address is reserved: the socket may
 * try several of them, and it connects to the addresses checked here, so a second answer from DNS
 * (rebinding) never reaches it.
 */
function guardedLookup(allowed: BlockList): LookupFunction {
  return (hostname, options, callback) => {
    resolveHost(hostname, { family: options.family, hints: options.hints, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      try {
        for (const { address } of addresses) checkAddress(address, allowed);
      } catch (refusal) {
        return callback(refusal as OutboundRefused, '');
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * One HTTP(S) request to a public address: no redirects followed (a 3xx is returned as is), loopback,
 * private and link-local addresses refused unless in `allowedNetworks`, the address checked after DNS
 * resolution, a time cap over the whole exchange and a size cap on the response body.
 */
export async function outboundRequest(url: string, options: OutboundRequestOptions): Promise<OutboundResponse> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new OutboundRefused(`scheme ${target.protocol} is not http: or https:`, 'scheme');
  const allowed = parseNetworks(options.allowedNetworks);
  // Node connects to a literal address without calling `lookup`, so literals are checked here.
  const literal = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal)) checkAddress(literal, allowed);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  return exchange(target, options, guardedLookup(allowed), signal, () =>
    timeout.aborted ? new OutboundRefused(`no complete answer within ${options.timeoutMs} ms`, 'timeout') : signal.reason,
  );
}

function exchange(
  target: URL,
  options: OutboundRequestOptions,
  lookup: LookupFunction,
  signal: AbortSignal,
  abortReason: () => unknown,
): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortReason());
    const headers = { ...options.headers };
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    // No agent: a pooled socket would outlive the check made for the request that opened it.
    const request = (target.protocol === 'https:' ? https : http).request(target, {
      method: options.method,
      headers,
      lookup,
      agent: false,
    });
    const onAbort = () => fail(abortReason());
    const fail = (error: unknown) => {
      signal.removeEventListener('abort', onAbort);
      reject(error);
      request.destroy();
    };
    const tooLarge = () => fail(new OutboundRefused(`the response body is larger than ${options.maxBytes} bytes`, 'too-large'));
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', fail);
    request.on('response', (response) => {
      response.on('error', fail);
      if (Number(response.headers['content-length']) > options.maxBytes) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) tooLarge();
        else chunks.push(chunk);
      });
      response.on('end', () => {
        signal.removeEventListener('abort', onAbort);
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
      });
    });
    request.end(options.body);
  });
}
