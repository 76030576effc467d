import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/platform/index.js';
import { tempDir } from '../platform/support/app.js';
import { pgliteDriver, postgresDriver } from '../platform/support/drivers.js';
import { createKey, createWorkspace, startResourcesApp, type ResourcesApp } from './support/app.js';
import { dataOf, explain, listOf, type Answer, type Api } from './support/client.js';
import { createParticipant, unique } from './support/resources.js';
import { creditsOf, emailsOf, eventsOf, move, SESSIONS, setUp, subscribe, type Session, type Setup } from './support/sessions.js';

const statuses = (answers: Answer[]) => answers.map((answer) => answer.status).sort((x, y) => x - y);
const explainAll = (answers: Answer[]) => answers.map(explain).join('\n');
const times = <T>(n: number, make: (index: number) => T): T[] => Array.from({ length: n }, (_, index) => make(index));

describe.each([pgliteDriver(), postgresDriver()])('concurrent sessions on $name', (driver) => {
  let first: ResourcesApp;
  /** A second service process on the same PostgreSQL; PGlite is one process's database, so there it is the first again. */
  let second: ResourcesApp | undefined;
  let a: Api;
  let b: Api;
  let setup: Setup;
  const db = (): Db => first.platform.database.db;

  beforeAll(async () => {
    const env = await driver.env();
    first = await startResourcesApp(env);
    const acmeId = await createWorkspace(first.platform, 'acme');
    const key = await createKey(first.platform, 'acme', 'all');
    if (driver.name === 'postgres') second = await startResourcesApp(env, tempDir());
    a = first.api(key);
    b = (second ?? first).api(key);
    await subscribe(db(), acmeId);
    setup = await setUp(a);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await driver.stop();
  });

  /** Alternates the two service processes (one on PGlite). */
  const client = (index: number) => (index % 2 ? b : a);

  it('20 parallel creates with one idempotency key: one session, one credit, one invite, one session.created', async () => {
    for (let round = 0; round < 3; round++) {
      const participant = await createParticipant(a, { name: `Racer ${unique()}` });
      const key = `race-${unique()}`;
      const credits = await creditsOf(a);
      const answers = await Promise.all(
        times(20, (index) =>
          client(index).post(SESSIONS, {
            candidate_id: participant.id,
            role_id: setup.role.id,
            idempotency_key: key,
            notes: `attempt ${index}`,
          }),
        ),
      );
      expect(statuses(answers), explainAll(answers)).toEqual([...times(19, () => 200), 201]);
      const sessions = answers.map((answer) => answer.body.data as Session & { idempotent: boolean });
      const ids = new Set(sessions.map((session) => session.id));
      expect(ids.size, explainAll(answers)).toBe(1);
      expect(sessions.filter((session) => session.idempotent).length).toBe(19);
      const [id] = ids;
      expect(listOf<Session>(await a.get(`${SESSIONS}?participantId=${participant.id}`)).data.map((s) => s.id)).toEqual([id]);
      expect(await creditsOf(a), 'credits spent').toBe(credits - 1);
      expect((await emailsOf(db(), id)).map((email) => email.topic)).toEqual(['invite']);
      expect((await eventsOf(db(), id)).map((event) => event.topic)).toEqual(['session.created']);
    }
  });

  it('10 parallel unforced creates for one participant and round without a key: one 201, nine 409', async () => {
    const participant = await createParticipant(a, { name: `Twin ${unique()}` });
    const credits = await creditsOf(a);
    const answers = await Promise.all(
      times(10, (index) => client(index).post(SESSIONS, { candidate_id: participant.id, role_id: setup.role.id })),
    );
    expect(statuses(answers), explainAll(answers)).toEqual([201, ...times(9, () => 409)]);
    expect(listOf<Session>(await a.get(`${SESSIONS}?participantId=${participant.id}`)).meta.total).toBe(1);
    expect(await creditsOf(a)).toBe(credits - 1);
  });

  it('creates racing for the last credits: as many sessions as credits, the rest 402, nothing left half-written', async () => {
    const slug = `few-${unique()}`;
    await createWorkspace(first.platform, slug);
    const key = await createKey(first.platform, slug, 'all');
    const [x, y] = [first.api(key), (second ?? first).api(key)];
    const mine = await setUp(x);
    await first.platform.admin({ command: 'plan.set', workspace: slug, plan: 'pro', credits: 3 });
    const people = await Promise.all(times(8, () => createParticipant(x, { name: `Hopeful ${unique()}` })));
    const answers = await Promise.all(
      people.map((person, index) => (index % 2 ? y : x).post(SESSIONS, { candidate_id: person.id, role_id: mine.role.id })),
    );
    expect(statuses(answers), explainAll(answers)).toEqual([201, 201, 201, 402, 402, 402, 402, 402]);
    expect(await creditsOf(x)).toBe(0);
    const stored = listOf<Session>(await x.get(SESSIONS)).data;
    expect(stored.map((s) => s.id).sort()).toEqual(
      answers
        .filter((answer) => answer.status === 201)
        .map((answer) => (answer.body.data as Session).id)
        .sort(),
    );
    for (const session of stored) expect(await emailsOf(db(), session.id)).toHaveLength(1);
  });

  it('racing moves of one session: one start wins, one scorecard wins, the others get 409', async () => {
    const participant = await createParticipant(a, { name: `Mover ${unique()}` });
    const session = dataOf<Session>(await a.post(SESSIONS, { candidate_id: participant.id, role_id: setup.role.id }), 201);
    const starts = await Promise.all(times(8, (index) => move(client(index), session.id, 'start')));
    expect(statuses(starts), explainAll(starts)).toEqual([200, ...times(7, () => 409)]);
    const report = { scores: { 'Problem solving': 9, Communication: 9 } };
    const closes = await Promise.all(
      times(8, (index) =>
        index % 4 === 3 ? move(client(index), session.id, 'cancel') : move(client(index), session.id, 'scorecard', report),
      ),
    );
    const winners = closes.filter((answer) => answer.status < 300);
    expect(winners.length, explainAll(closes)).toBe(1);
    expect(closes.filter((answer) => answer.status === 409).length, explainAll(closes)).toBe(7);
    const final = dataOf<Session>(await a.get(`${SESSIONS}/${session.id}`), 200);
    expect(final.status_history.map((change) => change.status)).toEqual(['scheduled', 'in_progress', final.status]);
    const closing = final.status === 'completed' ? 'session.completed' : 'session.cancelled';
    expect((await eventsOf(db(), session.id)).map((event) => event.topic)).toEqual(['session.created', 'session.started', closing]);
    const scorecard = await a.get(`${SESSIONS}/${session.id}/scorecard`);
    expect(scorecard.status, explain(scorecard)).toBe(final.status === 'completed' ? 200 : 404);
  });
});
