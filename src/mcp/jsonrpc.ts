import { isLosslessNumber, type LosslessNumber } from 'lossless-json';
import { RpcCode } from '../web/error-map.js';
import { isJsonObject } from '../web/json.js';

/** Numeric ids arrive as lossless numbers, so they are echoed with exactly the digits the client sent. */
export type JsonRpcId = string | number | LosslessNumber;

interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}
export type JsonRpcResponse =
  { jsonrpc: '2.0'; id: JsonRpcId; result: unknown } | { jsonrpc: '2.0'; id: JsonRpcId | null; error: JsonRpcError };

/** A failure the client should see as a JSON-RPC error object; anything else propagates to HTTP. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** Handles one request or notification; `params` is already known to be an object, array or absent. */
export type MethodHandler = (method: string, params: unknown) => Promise<unknown>;

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || typeof value === 'number' || isLosslessNumber(value);
}

export function errorResponse(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

/** Answers one message of a body; undefined when it expects no answer (notifications, client responses). */
async function answerOne(message: unknown, handle: MethodHandler): Promise<JsonRpcResponse | undefined> {
  if (!isJsonObject(message)) return errorResponse(null, RpcCode.InvalidRequest, 'a JSON-RPC message must be an object');
  const hasId = 'id' in message;
  if (hasId && !isId(message.id)) return errorResponse(null, RpcCode.InvalidRequest, 'id must be a string or a number');
  const id = hasId ? (message.id as JsonRpcId) : null;
  if (message.jsonrpc !== '2.0') return errorResponse(id, RpcCode.InvalidRequest, 'jsonrpc must be exactly "2.0"');
  // A client's reply to a server request: this server never sends requests, so there is nothing to match.
  if (!('method' in message) && hasId && ('result' in message || 'error' in message)) return undefined;
  if (typeof message.method !== 'string') return errorResponse(id, RpcCode.InvalidRequest, 'method must be a string');
  if ('params' in message && !isJsonObject(message.params) && !Array.isArray(message.params)) {
    return errorResponse(id, RpcCode.InvalidRequest, 'params must be an object or an array');
  }

  // Notifications never get an answer, not even an error, and a stateless server has no state for
  // them to change; running a request method sent as a notification would only waste (metered) work.
  if (!hasId) return undefined;
  try {
    return { jsonrpc: '2.0', id: id as JsonRpcId, result: await handle(message.method, message.params) };
  } catch (error) {
    if (error instanceof RpcError) return errorResponse(id, error.code, error.message, error.data);
    throw error;
  }
}

/**
 * Answers a parsed body: one message or a batch. Returns undefined when nothing is to be sent
 * (HTTP 202). Batch items run one after another so that metering sees them in order.
 */
export async function answerBody(body: unknown, handle: MethodHandler): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
  if (!Array.isArray(body)) return answerOne(body, handle);
  if (body.length === 0) return errorResponse(null, RpcCode.InvalidRequest, 'a batch must not be empty');
  const answers: JsonRpcResponse[] = [];
  for (const message of body) {
    const answer = await answerOne(message, handle);
    if (answer) answers.push(answer);
  }
  return answers.length > 0 ? answers : undefined;
}
