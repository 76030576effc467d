import { and, eq } from 'drizzle-orm';
import {
  DeliveryFailure,
  OutboundRefused,
  outboundRequest,
  type ClaimedMessage,
  type Db,
  type OutboundResponse,
  type OutboxHandler,
} from '../../platform/index.js';
import type { ResourcesConfig } from '../config.js';
import type { EventPayload } from './publish.js';
import { signatureHeaders } from './signature.js';
import { webhookEndpoints } from './table.js';

/** A receiver acknowledges with a status; its body is read only up to this, then dropped. */
const MAX_ANSWER_BYTES = 64 * 1024;
const USER_AGENT = 'code-runner-webhooks/1';

/** The body as sent: the payload's fields in their documented order (jsonb keeps its own order). */
function bodyOf(payload: ClaimedMessage['payload']): string {
  const { id, type, created_at, workspace_id, external_id, data } = payload as EventPayload;
  return JSON.stringify({ id, type, created_at, workspace_id, external_id, data });
}

async function endpointOf(db: Db, { workspaceId, targetId }: ClaimedMessage) {
  if (!workspaceId || !targetId) return undefined;
  const [endpoint] = await db
    .select({ url: webhookEndpoints.url, secret: webhookEndpoints.secret })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, targetId), eq(webhookEndpoints.workspace_id, workspaceId)));
  return endpoint;
}

/**
 * Delivers one webhook message: signs its body for its endpoint and POSTs it through the outbound
 * guard. Any answer but a 2xx fails the attempt (a 3xx too: redirects are never followed), and the
 * outbox retries it; a deleted endpoint or a refused address fails it for good.
 */
export function webhookHandler(db: Db, config: ResourcesConfig): OutboxHandler {
  const post = async (url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<OutboundResponse> => {
    try {
      return await outboundRequest(url, {
        method: 'POST',
        headers,
        body,
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        maxBytes: MAX_ANSWER_BYTES,
        allowedNetworks: config.OUTBOUND_ALLOWED_NETWORKS,
        signal,
      });
    } catch (error) {
      if (!(error instanceof OutboundRefused)) throw error;
      // Only a slow or oversized answer may go better next time; an address or a scheme never will.
      throw new DeliveryFailure(error.message, { permanent: error.reason === 'address' || error.reason === 'scheme' });
    }
  };

  return async (message, signal) => {
    const endpoint = await endpointOf(db, message);
    if (!endpoint) throw new DeliveryFailure('endpoint deleted', { permanent: true });
    const body = bodyOf(message.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...signatureHeaders(endpoint.secret, String(message.payload.id), timestamp, body),
    };
    const { status } = await post(endpoint.url, headers, body, signal);
    if (status < 200 || status >= 300) {
      const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
      throw new DeliveryFailure(`the endpoint answered ${status}${redirect}`, { statusCode: status });
    }
    return { statusCode: status };
  };
}
