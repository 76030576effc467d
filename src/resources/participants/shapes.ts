import { z } from 'zod';
import { paginationQuery } from '../../web/pagination.js';
import {
  activeOrArchived,
  clearableAll,
  label,
  longText,
  metadataObject,
  optionalAll,
  stringList,
  timestampField,
  url,
  uuidField,
} from '../shared/fields.js';

const shortText = z.string().max(200);

const profileShape = z.strictObject({
  title: shortText.optional(),
  organization: shortText.optional(),
  experienceLevel: shortText.optional(),
  location: shortText.optional(),
});
export type Profile = z.infer<typeof profileShape>;

const backgroundShape = z.strictObject({
  skills: stringList.optional(),
  education: longText.optional(),
  languages: stringList.optional(),
});
export type Background = z.infer<typeof backgroundShape>;

const email = z.email().max(254);

const optionalFields = {
  role_id: uuidField,
  external_id: shortText,
  phone: z.string().max(50),
  profile: profileShape,
  background: backgroundShape,
  resume_url: url,
  pipeline_id: uuidField,
  metadata: metadataObject,
};

export const participantCreate = z.strictObject({
  name: label,
  email,
  ...optionalAll(optionalFields),
  tags: stringList.default([]),
  status: activeOrArchived.default('active'),
});

export const participantUpdate = z.strictObject({
  name: label.optional(),
  email: email.optional(),
  ...clearableAll(optionalFields),
  tags: stringList.optional().describe('replaces the list'),
  status: activeOrArchived.optional(),
});

/** Bulk items take a create's fields; the batch is checked item by item, so one bad item is reported, not fatal. */
const MAX_BULK_ITEMS = 500;
export const participantBulk = z.strictObject({
  participants: z.array(z.unknown()).min(1).max(MAX_BULK_ITEMS),
  accountSlug: z.string().optional(),
});

/** Where the background fetch of resume_url stands (docs/resumes.md); null while there is no resume_url. */
export const resumeStatus = z.enum(['pending', 'extracted', 'failed']);

export const participantItem = z.object({
  id: uuidField,
  name: z.string(),
  email: z.string(),
  role_id: uuidField.nullable(),
  external_id: z.string().nullable(),
  phone: z.string().nullable(),
  tags: z.array(z.string()),
  profile: profileShape.nullable(),
  background: backgroundShape.nullable(),
  resume_url: z.string().nullable(),
  resume_status: resumeStatus.nullable(),
  resume_error: z.string().nullable().describe('why the résumé fetch failed, when resume_status is failed'),
  resume_fetched_at: timestampField.nullable().describe('when the last résumé fetch ended; the text is at GET /participants/{id}/resume'),
  pipeline_id: uuidField.nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  status: activeOrArchived,
  created_at: timestampField,
  updated_at: timestampField,
});

export const participantListQuery = paginationQuery.extend({
  roleId: uuidField.optional(),
  pipelineId: uuidField.optional(),
  status: activeOrArchived.optional(),
  search: z.string().max(200).optional().describe('case-insensitive substring of name or email'),
});

export const bulkResult = z.object({
  data: z.object({
    created: z.number().int(),
    rejected: z.number().int(),
    results: z.array(
      z.union([
        z.object({ index: z.number().int(), status: z.literal('created'), id: uuidField }),
        z.object({
          index: z.number().int(),
          status: z.literal('rejected'),
          error: z.string(),
          issues: z.array(z.object({ path: z.array(z.string()), message: z.string() })).optional(),
        }),
      ]),
    ),
  }),
});
