import { z } from 'zod';
import { paginationQuery } from '../../web/pagination.js';
import {
  difficultyLevel,
  label,
  lifecycleStatus,
  longText,
  minutes,
  optionalAll,
  stringList,
  timestampField,
  useCase,
  uuidField,
} from '../shared/fields.js';

const successOutcome = z.enum(['hire_no_hire', 'admit_reject', 'pass_fail', 'ready_needs_training', 'certified_not_certified', 'custom']);
const sessionMode = z.enum(['live_ai_interview', 'async_interview', 'roleplay_simulation', 'practice_session', 'manual_review']);
const visibility = z.enum(['private', 'team', 'organization', 'public_template']);

/** The recommendation vocabulary a use case implies when `success_outcome` is left out. */
export const OUTCOME_OF_USE_CASE: Record<z.infer<typeof useCase>, z.infer<typeof successOutcome>> = {
  hiring: 'hire_no_hire',
  admissions: 'admit_reject',
  training: 'ready_needs_training',
  custom_api: 'custom',
};

export const roleCreate = z.strictObject({
  template_name: label,
  use_case: useCase,
  description: longText.min(1, 'must not be empty'),
  objective: longText.min(1, 'must not be empty'),
  success_outcome: successOutcome.optional(),
  status: lifecycleStatus.default('active'),
  ...optionalAll({ domain: label, level: label, requirements: longText, additional_notes: longText }),
  skills: stringList.default([]),
  soft_skills: stringList.default([]),
  default_duration_minutes: minutes.default(30),
  default_difficulty: difficultyLevel.default('intermediate'),
  default_session_mode: sessionMode.default('live_ai_interview'),
  visibility: visibility.default('team'),
});

/** The contract's update list, plus the two fields it leaves unnamed, under their create names. */
export const roleUpdate = z.strictObject({
  template_name: label.optional(),
  skills: stringList.optional(),
  soft_skills: stringList.optional(),
  objective: longText.min(1, 'must not be empty').optional(),
  requirements: longText.nullable().optional(),
  default_duration_minutes: minutes.optional(),
  status: lifecycleStatus.optional(),
  default_difficulty: difficultyLevel.optional(),
});

export const roleItem = z.object({
  id: uuidField,
  template_name: z.string(),
  use_case: useCase,
  description: z.string(),
  objective: z.string(),
  success_outcome: successOutcome,
  status: lifecycleStatus,
  domain: z.string().nullable(),
  level: z.string().nullable(),
  requirements: z.string().nullable(),
  skills: z.array(z.string()),
  soft_skills: z.array(z.string()),
  additional_notes: z.string().nullable(),
  default_duration_minutes: z.number().int(),
  default_difficulty: difficultyLevel,
  default_session_mode: sessionMode,
  visibility,
  created_at: timestampField,
  updated_at: timestampField,
});

export const roleListQuery = paginationQuery.extend({
  status: lifecycleStatus.optional(),
  useCase: useCase.optional(),
  search: z.string().max(200).optional().describe('case-insensitive substring of template_name'),
});
