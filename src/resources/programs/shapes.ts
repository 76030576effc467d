import { z } from 'zod';
import { paginationQuery } from '../../web/pagination.js';
import { activeOrArchived, label, longText, timestampField, uuidField } from '../shared/fields.js';

export const programCreate = z.strictObject({
  name: label,
  description: longText.optional(),
  status: activeOrArchived.default('active'),
});

export const programUpdate = z.strictObject({
  name: label.optional(),
  description: longText.nullable().optional(),
  status: activeOrArchived.optional(),
});

export const programItem = z.object({
  id: uuidField,
  name: z.string(),
  description: z.string().nullable(),
  status: activeOrArchived,
  created_at: timestampField,
  updated_at: timestampField,
});

export const programListQuery = paginationQuery.extend({ status: activeOrArchived.optional() });
