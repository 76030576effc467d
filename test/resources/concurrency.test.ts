import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDriver, postgresDriver } from '../platform/support/drivers.js';
import { tempDir } from '../platform/support/app.js';
import { createKey, createWorkspace, startResourcesApp, type ResourcesApp } from './support/app.js';
import { explain, expectError, expectIssue, listOf, walkPages, type Answer, type Api } from './support/client.js';
import {
  createInterviewer,
  createParticipant,
  createProgram,
  createRole,
  createRound,
  unique,
  type Participant,
} from './support/resources.js';

const statuses = (answers: Answer[]) => answers.map((answer) => answer.status).sort((x, y) => x - y);
const explainAll = (answers: Answer[]) => answers.map(explain).join('\n');

async function stored(api: Api, email: string): Promise<Participant[]> {
  return listOf<Participant>(await api.get(`/api/v1/participants?search=${encodeURIComponent(email)}&pageSize=100`)).data.filter(
    (participant) => participant.email.toLowerCase() === email.toLowerCase(),
  );
}

describe.each([pgliteDriver(), postgresDriver()])('concurrent writes on $name', (driver) => {
  let first: ResourcesApp;
  /** A second service process on the same PostgreSQL; PGlite is one process's database, so there it is the first again. */
  let second: ResourcesApp | undefined;
  let a: Api;
  let b: Api;
  let otherApi: Api;
  let acmeId: string;

  beforeAll(async () => {
    const env = await driver.env();
    first = await startResourcesApp(env);
    acmeId = await createWorkspace(first.platform, 'acme');
    await createWorkspace(first.platform, 'other');
    const key = await createKey(first.platform, 'acme', 'all');
    otherApi = first.api(await createKey(first.platform, 'other', 'all'));
    if (driver.name === 'postgres') second = await startResourcesApp(env, tempDir());
    a = first.api(key);
    b = (second ?? first).api(key);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await driver.stop();
  });

  it('two simultaneous creates of one email in two cases: exactly one 201 and one 409', async () => {
    for (let round = 0; round < 10; round++) {
      const email = `Race.${unique()}@Example.com`;
      const answers = await Promise.all([
        a.post('/api/v1/participants', { name: 'First', email }),
        a.post('/api/v1/participants', { name: 'Second', email: email.toLowerCase() }),
      ]);
      expect(statuses(answers), explainAll(answers)).toEqual([201, 409]);
      expectError(
        answers.find((answer) => answer.status === 409)!,
        409,
      );
      expect((await stored(a, email)).length, `stored with ${email}`).toBe(1);
    }
  });

  it('eight simultaneous creates of one email: one 201, seven 409', async () => {
    const email = `crowd.${unique()}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        a.post('/api/v1/participants', { name: `Crowd ${index}`, email: index % 2 ? email.toUpperCase() : email }),
      ),
    );
    expect(statuses(answers), explainAll(answers)).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect((await stored(a, email)).length).toBe(1);
  });

  // PGlite is one process's database: the two-instance race exists on PostgreSQL only (elsewhere a and b are one app).
  const onPostgres = (name: string, test: () => Promise<void>) => (driver.name === 'postgres' ? it(name, test) : undefined);
  onPostgres('two service instances on one PostgreSQL: a unique index decides, not a read-then-write', async () => {
    for (let round = 0; round < 10; round++) {
      const email = `Twin.${unique()}@Example.com`;
      const answers = await Promise.all([
        a.post('/api/v1/participants', { name: 'On instance one', email }),
        b.post('/api/v1/participants', { name: 'On instance two', email: email.toUpperCase() }),
      ]);
      expect(statuses(answers), explainAll(answers)).toEqual([201, 409]);
      expect((await stored(b, email)).length, `stored with ${email}`).toBe(1);
    }
  });

  it('two bulk imports of overlapping batches at once: what each calls created is exactly what is stored', async () => {
    for (let round = 0; round < 3; round++) {
      const marker = unique();
      const batch = (from: number, upper: boolean) =>
        Array.from({ length: 40 }, (_, i) => {
          const email = `overlap${from + i}.${marker}@example.com`;
          return { name: `Overlap ${from + i}`, email: upper ? email.toUpperCase() : email };
        });
      const answers = await Promise.all([
        a.post('/api/v1/participants/bulk', { participants: batch(0, false) }),
        b.post('/api/v1/participants/bulk', { participants: batch(20, true) }),
      ]);
      const both = explainAll(answers);
      const results = answers.map((answer) => {
        expect(answer.status, both).toBe(200);
        return answer.body.data as { created: number; results: Array<{ index: number; status: string; id?: string }> };
      });
      // 60 distinct addresses; the 20 shared ones created by exactly one of the two.
      expect(results[0].created + results[1].created, both).toBe(60);
      const listed = (await walkPages<Participant>(a, `/api/v1/participants?search=${marker}`, 100)).items;
      expect(listed.length, both).toBe(60);
      const createdIds = results.flatMap((result) => result.results.filter((item) => item.status === 'created').map((item) => item.id));
      expect([...createdIds].sort(), both).toEqual(listed.map((participant) => participant.id).sort());
    }
  });

  it('two updates moving two participants to one email at once: one 200, one 409', async () => {
    for (let round = 0; round < 5; round++) {
      const [p, q] = [await createParticipant(a), await createParticipant(a)];
      const email = `Moved.${unique()}@example.com`;
      const answers = await Promise.all([
        a.patch(`/api/v1/participants/${p.id}`, { email }),
        b.patch(`/api/v1/participants/${q.id}`, { email: email.toUpperCase() }),
      ]);
      expect(statuses(answers), explainAll(answers)).toEqual([200, 409]);
      expect((await stored(a, email)).length).toBe(1);
    }
  });

  it('a bulk import racing the delete of a role it names: all of its valid items stored, or none', async () => {
    for (let round = 0; round < 6; round++) {
      const role = await createRole(a);
      const marker = unique();
      const items = Array.from({ length: 20 }, (_, i) => ({
        name: `Batch ${i}`,
        email: `batch${i}.${marker}@example.com`,
        role_id: role.id,
      }));
      const [imported, deleted] = await Promise.all([
        a.post('/api/v1/participants/bulk', { participants: items }),
        b.delete(`/api/v1/roles/${role.id}`),
      ]);
      const both = explainAll([imported, deleted]);
      const storedCount = listOf<Participant>(await a.get(`/api/v1/participants?search=${marker}&pageSize=100`)).meta.total;
      expect(imported.status, both).toBeLessThan(500);
      if (imported.status === 200) {
        const result = imported.body.data as { created: number };
        // What the answer calls created is exactly what is stored.
        expect(storedCount, both).toBe(result.created);
        if (result.created > 0) {
          expect(deleted.status, both).toBe(409);
          expect(result.created, both).toBe(20);
        } else expect(deleted.status, both).toBe(204);
      } else {
        // The request failed: nothing of it is stored.
        expect(storedCount, both).toBe(0);
        expect(deleted.status, both).toBe(204);
      }
    }
  });

  it('a create racing the delete of its role never leaves a dangling role_id', async () => {
    for (let round = 0; round < 8; round++) {
      const role = await createRole(a);
      const email = `orphan.${unique()}@example.com`;
      const [created, deleted] = await Promise.all([
        a.post('/api/v1/participants', { name: 'Racer', email, role_id: role.id }),
        b.delete(`/api/v1/roles/${role.id}`),
      ]);
      const both = explainAll([created, deleted]);
      if (created.status === 201) {
        // The participant won: the role must still be there, refused with 409.
        expect(deleted.status, both).toBe(409);
        expect((await a.get(`/api/v1/roles/${role.id}`)).status, both).toBe(200);
      } else {
        // The delete won: the create is refused naming role_id, and nothing is stored.
        expectIssue(created, 'role_id');
        expect(deleted.status, both).toBe(204);
        expect(await stored(a, email), both).toEqual([]);
      }
    }
  });

  it('the database itself refuses ids of another workspace, deletes that leave dangling ids and emails differing in case', async () => {
    const db = first.platform.database.db;
    const role = await createRole(a);
    const interviewer = await createInterviewer(a);
    const program = await createProgram(a);
    const participant = await createParticipant(a, { role_id: role.id, pipeline_id: program.id });
    await createRound(a, role.id, { interviewer_id: interviewer.id });
    const [theirRole, theirInterviewer, theirProgram] = [
      await createRole(otherApi),
      await createInterviewer(otherApi),
      await createProgram(otherApi),
    ];

    /** Runs a statement that must fail on a constraint (23503 foreign key, 23505 unique), not on anything else. */
    async function refused(statement: SQL, what: string): Promise<void> {
      let code: string | undefined;
      try {
        await db.execute(statement);
      } catch (error) {
        const failure = error as { code?: string; cause?: { code?: string } };
        code = failure.cause?.code ?? failure.code;
      }
      expect(code, `the database must refuse ${what}`).toMatch(/^(23503|23505)$/);
    }
    const email = () => `direct.${unique()}@example.com`;

    // The same statements with ids of the workspace itself are fine: the refusals below are the constraints.
    await db.execute(
      sql`insert into participants (workspace_id, name, email, role_id, pipeline_id) values (${acmeId}, 'Direct', ${email()}, ${role.id}, ${program.id})`,
    );
    await db.execute(
      sql`insert into rounds (workspace_id, role_id, stage_name, duration_minutes, stage_order, interviewer_id) values (${acmeId}, ${role.id}, 'Direct', 30, 50, ${interviewer.id})`,
    );

    await refused(
      sql`insert into participants (workspace_id, name, email, role_id) values (${acmeId}, 'Direct', ${email()}, ${theirRole.id})`,
      'a participant with a role of another workspace',
    );
    await refused(
      sql`insert into participants (workspace_id, name, email, pipeline_id) values (${acmeId}, 'Direct', ${email()}, ${theirProgram.id})`,
      'a participant with a program of another workspace',
    );
    await refused(
      sql`insert into rounds (workspace_id, role_id, stage_name, duration_minutes, stage_order) values (${acmeId}, ${theirRole.id}, 'Direct', 30, 1)`,
      'a round of a role of another workspace',
    );
    await refused(
      sql`insert into rounds (workspace_id, role_id, stage_name, duration_minutes, stage_order, interviewer_id) values (${acmeId}, ${role.id}, 'Direct', 30, 1, ${theirInterviewer.id})`,
      'a round with an interviewer of another workspace',
    );
    await refused(sql`delete from roles where id = ${role.id}`, 'deleting a role with rounds and participants');
    await refused(sql`delete from interviewers where id = ${interviewer.id}`, 'deleting an interviewer a round uses');
    await refused(sql`delete from programs where id = ${program.id}`, 'deleting a program a participant names');
    await refused(
      sql`insert into participants (workspace_id, name, email) values (${acmeId}, 'Direct', ${participant.email.toUpperCase()})`,
      'an email differing only in case',
    );
  });
});
