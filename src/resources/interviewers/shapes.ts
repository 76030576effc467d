import { z } from 'zod';
import { paginationQuery } from '../../web/pagination.js';
import { label, longText, optionalAll, timestampField, useCase, uuidField } from '../shared/fields.js';

const WEIGHT_TOTAL = 100;

const dimensionShape = z.strictObject({
  name: label,
  description: longText,
  weight: z.number().positive(),
});
export type Dimension = z.infer<typeof dimensionShape>;

/** 1 to 20 dimensions with distinct names whose weights sum to 100. */
const dimensions = z
  .array(dimensionShape)
  .min(1)
  .max(20)
  .superRefine((list, ctx) => {
    const total = list.reduce((sum, d) => sum + d.weight, 0);
    if (Math.abs(total - WEIGHT_TOTAL) > 1e-9)
      ctx.addIssue({ code: 'custom', message: `weights must sum to ${WEIGHT_TOTAL} (they sum to ${total})` });
    const names = list.map((d) => d.name);
    if (new Set(names).size !== names.length) ctx.addIssue({ code: 'custom', message: 'dimension names must be distinct' });
  });

const contextShape = z.strictObject(optionalAll({ organizationContext: longText, domainContext: longText, scenarioContext: longText }));
export type Context = z.infer<typeof contextShape>;

const interactionShape = z.strictObject(
  optionalAll({
    tone: z.enum(['friendly', 'professional', 'strict', 'challenging']),
    style: z.enum(['structured', 'conversational', 'adaptive']),
    difficulty: z.enum(['easy', 'medium', 'hard', 'adaptive']),
    probingDepth: z.enum(['low', 'medium', 'high']),
  }),
);
export type Interaction = z.infer<typeof interactionShape>;

const scoringShape = z.strictObject(
  optionalAll({
    scale: z.enum(['0-10', '0-5', '0-100']),
    scoringMethod: z.enum(['weighted_average', 'rule_based']),
    recommendationLogic: longText,
  }),
);
export type Scoring = z.infer<typeof scoringShape>;

const OUTPUT_FLAGS = ['includeTranscript', 'includeScoreBreakdown', 'includeRecommendation', 'includeImprovementFeedback'] as const;
const outputShape = z.strictObject(
  Object.fromEntries(OUTPUT_FLAGS.map((flag) => [flag, z.boolean().default(true)])) as Record<
    (typeof OUTPUT_FLAGS)[number],
    z.ZodDefault<z.ZodBoolean>
  >,
);
export type Output = z.infer<typeof outputShape>;

export const interviewerCreate = z.strictObject({
  name: label,
  persona: longText.min(1, 'must not be empty'),
  useCase,
  evaluationDimensions: dimensions,
  ...optionalAll({ context: contextShape, interaction: interactionShape, scoring: scoringShape, additionalInstructions: longText }),
  output: outputShape.prefault({}),
  isPublic: z.boolean().default(false),
});

/** Everything but `output`, which is create-only: sending it is a 400 rather than a silent no-op. */
export const interviewerUpdate = z.strictObject({
  name: label.optional(),
  persona: longText.min(1, 'must not be empty').optional(),
  evaluationDimensions: dimensions.optional(),
  context: contextShape.nullable().optional(),
  interaction: interactionShape.nullable().optional(),
  scoring: scoringShape.nullable().optional(),
  additionalInstructions: longText.nullable().optional(),
  isPublic: z.boolean().optional(),
});

export const forkBody = z.strictObject({ sourceId: uuidField });

export const createQuery = z.object({
  action: z.literal('fork').optional().describe('`fork` copies a public interviewer (body `{ sourceId }`)'),
  accountSlug: z.string().optional(),
});

export const interviewerItem = z.object({
  id: uuidField,
  name: z.string(),
  persona: z.string(),
  useCase,
  evaluationDimensions: z.array(dimensionShape),
  context: contextShape.nullable(),
  interaction: interactionShape.nullable(),
  scoring: scoringShape.nullable(),
  output: outputShape,
  additionalInstructions: z.string().nullable(),
  isPublic: z.boolean(),
  forkedFrom: uuidField.nullable().meta({ description: 'the interviewer this one was forked from' }),
  createdAt: timestampField,
  updatedAt: timestampField,
});

export const interviewerListQuery = paginationQuery.extend({
  scope: z.literal('public').optional().describe('`public`: public interviewers of every workspace'),
  useCase: useCase.optional(),
});
