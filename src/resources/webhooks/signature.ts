import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks (standardwebhooks.com): the secret's prefix, followed by base64 of the key bytes. */
const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/**
 * The Standard Webhooks headers of one delivery attempt: `webhook-signature` is `v1,` and the base64
 * HMAC-SHA256, keyed with the decoded secret, of `${id}.${timestamp}.${body}`.
 */
export function signatureHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` };
}
