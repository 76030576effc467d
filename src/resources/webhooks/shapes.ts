import { z } from 'zod';
import { paginationQuery } from '../../web/pagination.js';
import { longText, timestampField, uuidField } from '../shared/fields.js';
import { ALL_EVENTS, EVENT_TYPES } from './publish.js';

const eventName = z.enum([...EVENT_TYPES, ALL_EVENTS]).describe(`an event type, or "${ALL_EVENTS}" for every type`);

export const webhookCreate = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).max(2048),
  events: z
    .array(eventName)
    .min(1, 'name at least one event type')
    .max(EVENT_TYPES.length + 1)
    .transform((events) => [...new Set(events)]),
  description: longText.optional(),
});

export const webhookItem = z.object({
  id: uuidField,
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  created_at: timestampField,
  updated_at: timestampField,
});

/** The create answer: the only one that carries the signing secret. */
export const webhookCreated = webhookItem.extend({
  secret: z.string().describe('whsec_ and base64 of 32 bytes; shown only in this answer'),
});

const deliveryStatus = z.enum(['pending', 'delivered', 'failed']);

export const deliveryListQuery = paginationQuery.extend({ status: deliveryStatus.optional() });

export const deliveryItem = z.object({
  id: uuidField,
  event_id: uuidField,
  type: z.string(),
  status: deliveryStatus,
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: timestampField,
  delivered_at: timestampField.nullable(),
  next_attempt_at: timestampField.nullable().describe('when the next attempt is due; null unless pending'),
  attempt_log: z.array(
    z.object({
      attempt: z.number().int(),
      started_at: timestampField,
      duration_ms: z.number().int(),
      outcome: z.enum(['delivered', 'retry', 'failed']),
      status_code: z.number().int().nullable(),
      error: z.string().nullable(),
    }),
  ),
});
