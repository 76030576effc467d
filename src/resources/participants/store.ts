import { and, desc, eq, ilike, inArray, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../platform/index.js';
import { ValidationError } from '../../web/errors.js';
import type { Pagination } from '../../web/pagination.js';
import { programs } from '../programs/table.js';
import { roles } from '../roles/table.js';
import type { CrudStore } from '../shared/crud-routes.js';
import { likePattern } from '../shared/like.js';
import { ownedRows } from '../shared/owned-rows.js';
import { pageOf } from '../shared/paging.js';
import { present, type Presented } from '../shared/present.js';
import { writing, type Constraints } from '../shared/write-errors.js';
import { publishEvents } from '../webhooks/publish.js';
import { queueResumeFetch } from './resume.js';
import type { participantCreate, participantListQuery, participantUpdate } from './shapes.js';
import { participants } from './table.js';

type Create = z.output<typeof participantCreate>;
type Update = z.output<typeof participantUpdate>;
type Query = z.output<typeof participantListQuery> & Pagination;
type Item = Omit<Presented<typeof participants.$inferSelect>, 'resume_text'>;

/** A participant as the API answers it: never its résumé's text, which can be long (GET /participants/{id}/resume reads it). */
function answered(participant: Presented<typeof participants.$inferSelect>): Item {
  const { resume_text: _text, ...item } = participant;
  return item;
}

const CONSTRAINTS: Constraints = {
  references: {
    participants_role_fk: { field: 'role_id', noun: 'role' },
    participants_program_fk: { field: 'pipeline_id', noun: 'program' },
  },
  conflicts: { participants_email_key: 'a participant with this email already exists in the workspace' },
};

/** A role or program checked above can vanish before the statement runs; the whole batch is then refused, nothing stored. */
const BATCH_CONSTRAINTS: Constraints = {
  conflicts: {
    participants_role_fk: 'a role the batch names was deleted while it was imported; nothing was stored',
    participants_program_fk: 'a program the batch names was deleted while it was imported; nothing was stored',
  },
};

/** Each item of a batch by its index: its new id, or why it was refused. */
type BatchOutcome = Map<number, { id: string } | { error: string; issues?: ValidationError['issues'] }>;

export interface ParticipantStore extends CrudStore<Item, Create, Update, Query> {
  /** Inserts what it can of a batch in one statement, and publishes participant.created for each in the same transaction. */
  createMany(workspaceId: string, items: Array<{ index: number; body: Create }>): Promise<BatchOutcome>;
}

/** Which of these role and program ids exist in the workspace, so that a batch item naming another is refused alone. */
async function knownIds(db: Db, workspaceId: string, items: Create[]) {
  const roleIds = [...new Set(items.flatMap((item) => (item.role_id ? [item.role_id] : [])))];
  const programIds = [...new Set(items.flatMap((item) => (item.pipeline_id ? [item.pipeline_id] : [])))];
  const [foundRoles, foundPrograms] = [
    roleIds.length
      ? await db
          .select({ id: roles.id })
          .from(roles)
          .where(and(eq(roles.workspace_id, workspaceId), inArray(roles.id, roleIds)))
      : [],
    programIds.length
      ? await db
          .select({ id: programs.id })
          .from(programs)
          .where(and(eq(programs.workspace_id, workspaceId), inArray(programs.id, programIds)))
      : [],
  ];
  return { roles: new Set(foundRoles.map((r) => r.id)), programs: new Set(foundPrograms.map((p) => p.id)) };
}

/** Clearing resume_url clears what was fetched from it. */
const RESUME_CLEARED = { resume_status: null, resume_error: null, resume_text: null, resume_fetched_at: null };

/** The participants of the workspace with these ids, as the API answers them, in the order of `ids`. */
async function current(db: Db, workspaceId: string, ids: string[]): Promise<Item[]> {
  const rows = await db
    .select()
    .from(participants)
    .where(and(eq(participants.workspace_id, workspaceId), inArray(participants.id, ids)));
  const byId = new Map(rows.map((row) => [row.id, answered(present(row))]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The end of a participant write, in its transaction: starts the résumé fetch of each participant
 * whose body named a resume_url (`fetchResumes`), then publishes the event of each as it now is.
 */
async function announce(
  tx: Db,
  workspaceId: string,
  type: 'participant.created' | 'participant.updated',
  items: Item[],
  fetchResumes: boolean,
): Promise<Item[]> {
  const fetches = fetchResumes ? items.flatMap((item) => (item.resume_url ? [{ participantId: item.id, url: item.resume_url }] : [])) : [];
  for (const fetch of fetches) await queueResumeFetch(tx, { workspaceId, ...fetch });
  // Queuing a fetch marks the résumé pending: the answer and the event say so.
  const fresh =
    fetches.length > 0
      ? await current(
          tx,
          workspaceId,
          items.map((item) => item.id),
        )
      : items;
  await publishEvents(
    tx,
    fresh.map((data) => ({ workspaceId, type, data, externalId: data.external_id })),
  );
  return fresh;
}

/** `createMany` inside its transaction: the batch and the events of what it created commit together. */
async function insertBatch(tx: Db, workspaceId: string, items: Array<{ index: number; body: Create }>): Promise<BatchOutcome> {
  const outcome: BatchOutcome = new Map();
  const known = await knownIds(
    tx,
    workspaceId,
    items.map((item) => item.body),
  );
  const insertable = items.filter(({ index, body }) => {
    if (body.role_id && !known.roles.has(body.role_id)) outcome.set(index, unknownId('role_id', 'role'));
    else if (body.pipeline_id && !known.programs.has(body.pipeline_id)) outcome.set(index, unknownId('pipeline_id', 'program'));
    else return true;
    return false;
  });
  if (insertable.length === 0) return outcome;
  // ON CONFLICT DO NOTHING keeps the first of two equal addresses in the batch and skips existing ones, in one statement.
  const inserted = await writing(
    tx
      .insert(participants)
      .values(insertable.map(({ body }) => ({ ...body, workspace_id: workspaceId })))
      .onConflictDoNothing()
      .returning(),
    BATCH_CONSTRAINTS,
  );
  await announce(
    tx,
    workspaceId,
    'participant.created',
    inserted.map((row) => answered(present(row))),
    true,
  );
  const idByEmail = new Map(inserted.map((row) => [row.email.toLowerCase(), row.id]));
  for (const { index, body } of insertable) {
    const id = idByEmail.get(body.email.toLowerCase());
    if (id) idByEmail.delete(body.email.toLowerCase());
    outcome.set(
      index,
      id ? { id } : { error: 'duplicate email: a participant with this email exists in the workspace or earlier in this batch' },
    );
  }
  return outcome;
}

export function participantStore(db: Db): ParticipantStore {
  const owned = ownedRows(db, participants, 'updated_at', CONSTRAINTS);

  return {
    create: (workspaceId, body) =>
      db.transaction(async (tx) => {
        const [row] = await writing(
          tx
            .insert(participants)
            .values({ ...body, workspace_id: workspaceId })
            .returning(),
          CONSTRAINTS,
        );
        const [item] = await announce(tx, workspaceId, 'participant.created', [answered(present(row))], true);
        return item;
      }),
    createMany: (workspaceId, items) => db.transaction((tx) => insertBatch(tx, workspaceId, items)),
    async list(workspaceId, query) {
      const where = and(
        eq(participants.workspace_id, workspaceId),
        query.roleId ? eq(participants.role_id, query.roleId) : undefined,
        query.pipelineId ? eq(participants.pipeline_id, query.pipelineId) : undefined,
        query.status ? eq(participants.status, query.status) : undefined,
        query.search
          ? or(ilike(participants.name, likePattern(query.search)), ilike(participants.email, likePattern(query.search)))
          : undefined,
      );
      const { rows, total } = await pageOf(db, participants, where, [desc(participants.created_at), desc(participants.id)], query);
      return { items: rows.map((row) => answered(present(row))), total };
    },
    async get(workspaceId, id) {
      const participant = await owned.get(workspaceId, id);
      return participant && answered(participant);
    },
    update: (workspaceId, id, body) =>
      db.transaction(async (tx) => {
        const updated = await ownedRows(tx, participants, 'updated_at', CONSTRAINTS).update(workspaceId, id, {
          ...body,
          ...(body.resume_url === null ? RESUME_CLEARED : {}),
        });
        if (!updated) return undefined;
        const [item] = await announce(tx, workspaceId, 'participant.updated', [answered(updated)], Boolean(body.resume_url));
        return item;
      }),
    remove: owned.remove,
  };
}

function unknownId(field: string, noun: string) {
  const message = `no ${noun} with this id in the workspace`;
  return { error: `${field}: ${message}`, issues: [{ path: [field], message }] };
}
