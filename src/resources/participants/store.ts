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
import { present } from '../shared/present.js';
import { writing, type Constraints } from '../shared/write-errors.js';
import type { participantCreate, participantListQuery, participantUpdate } from './shapes.js';
import { participants } from './table.js';

type Create = z.output<typeof participantCreate>;
type Update = z.output<typeof participantUpdate>;
type Query = z.output<typeof participantListQuery> & Pagination;
type Item = ReturnType<typeof present<typeof participants.$inferSelect>>;

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

export interface ParticipantStore extends CrudStore<Item, Create, Update, Query> {
  /** Inserts what it can of a batch in one statement: each item's index with its new id, or why it was refused. */
  createMany(
    workspaceId: string,
    items: Array<{ index: number; body: Create }>,
  ): Promise<Map<number, { id: string } | { error: string; issues?: ValidationError['issues'] }>>;
}

export function participantStore(db: Db): ParticipantStore {
  const owned = ownedRows(db, participants, 'updated_at', CONSTRAINTS);

  /** Which of these role and program ids exist in the workspace, so that a batch item naming another is refused alone. */
  async function knownIds(workspaceId: string, items: Create[]) {
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

  return {
    async create(workspaceId, body) {
      const [row] = await writing(
        db
          .insert(participants)
          .values({ ...body, workspace_id: workspaceId })
          .returning(),
        CONSTRAINTS,
      );
      return present(row);
    },
    async createMany(workspaceId, items) {
      const outcome = new Map<number, { id: string } | { error: string; issues?: ValidationError['issues'] }>();
      const known = await knownIds(
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
        db
          .insert(participants)
          .values(insertable.map(({ body }) => ({ ...body, workspace_id: workspaceId })))
          .onConflictDoNothing()
          .returning({ id: participants.id, email: participants.email }),
        BATCH_CONSTRAINTS,
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
    },
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
      return { items: rows.map(present), total };
    },
    get: owned.get,
    update: owned.update,
    remove: owned.remove,
  };
}

function unknownId(field: string, noun: string) {
  const message = `no ${noun} with this id in the workspace`;
  return { error: `${field}: ${message}`, issues: [{ path: [field], message }] };
}
