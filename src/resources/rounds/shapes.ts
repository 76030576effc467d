import { z } from 'zod';
import { paginationQuery } from '../../web/pagination.js';
import { clearableAll, label, lifecycleStatus, minutes, optionalAll, timestampField, uuidField } from '../shared/fields.js';

const optionalFields = {
  stage_type: label,
  interviewer_id: uuidField,
  difficulty: label,
  pass_threshold: z.number().min(0).max(100),
  automation_rule: z.string().max(1000),
};

export const roundCreate = z.strictObject({
  role_id: uuidField,
  stage_name: label,
  ...optionalAll(optionalFields),
  duration_minutes: minutes.optional().describe("default: the role's default_duration_minutes"),
  stage_order: z.number().int().min(0).max(1000).optional().describe("default: one past the role's highest"),
  status: lifecycleStatus.default('active'),
});

/** A round stays in its role: `role_id` is not among the update fields. */
export const roundUpdate = z.strictObject({
  stage_name: label.optional(),
  ...clearableAll(optionalFields),
  duration_minutes: minutes.optional(),
  stage_order: z.number().int().min(0).max(1000).optional(),
  status: lifecycleStatus.optional(),
});

export const roundItem = z.object({
  id: uuidField,
  role_id: uuidField,
  stage_name: z.string(),
  stage_type: z.string().nullable(),
  duration_minutes: z.number().int(),
  interviewer_id: uuidField.nullable(),
  stage_order: z.number().int(),
  difficulty: z.string().nullable(),
  pass_threshold: z.number().nullable(),
  automation_rule: z.string().nullable(),
  status: lifecycleStatus,
  created_at: timestampField,
  updated_at: timestampField,
});

export const roundListQuery = paginationQuery.extend({
  roleId: uuidField.optional().describe('the parent role'),
  status: lifecycleStatus.optional(),
});
