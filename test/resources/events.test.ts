import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pgliteDriver, postgresDriver } from '../platform/support/drivers.js';
import { createKey, createWorkspace, startResourcesApp, type ResourceEvent, type ResourcesApp } from './support/app.js';
import { dataOf, expectError, explain, expectStatus, type Api } from './support/client.js';
import {
  PATHS,
  createInterviewer,
  createParticipant,
  createRole,
  fullInterviewerBody,
  fullParticipantBody,
  fullRoleBody,
  minimalRoleBody,
  sleep,
  type BulkResult,
  type Interviewer,
  type Kind,
  type Obj,
  type Participant,
  type Program,
  type Role,
} from './support/resources.js';

describe.each([pgliteDriver(), postgresDriver()])('resource events on $name', (driver) => {
  let server: ResourcesApp;
  let api: Api;
  let otherApi: Api;
  let acmeId: string;
  let otherId: string;

  beforeAll(async () => {
    server = await startResourcesApp(await driver.env());
    acmeId = await createWorkspace(server.platform, 'acme');
    otherId = await createWorkspace(server.platform, 'other');
    api = server.api(await createKey(server.platform, 'acme', 'all'));
    otherApi = server.api(await createKey(server.platform, 'other', 'all'));
  });
  afterAll(async () => {
    await server?.close();
    await driver.stop();
  });

  /** The events `action` caused: waits for `count` of them (a sink may be called just after the answer), then a moment for strays. */
  async function eventsOf(count: number, action: () => Promise<void>): Promise<ResourceEvent[]> {
    const since = server.events.length;
    await action();
    if (count > 0) await vi.waitFor(() => expect(server.events.length - since).toBeGreaterThanOrEqual(count), { timeout: 2000 });
    await sleep(50);
    return server.events.slice(since);
  }

  it('emits <resource>.created once for each create, with the workspace id and the resource as answered', async () => {
    let role: Role | undefined;
    let interviewer: Interviewer | undefined;
    let program: Program | undefined;
    const creates: Array<[Kind, () => Obj]> = [
      ['role', () => fullRoleBody()],
      ['interviewer', () => fullInterviewerBody()],
      ['program', () => ({ name: 'Graduates', description: 'Rotation', status: 'active' })],
      ['round', () => ({ role_id: role!.id, stage_name: 'Screen', interviewer_id: interviewer!.id, pass_threshold: 70 })],
      ['participant', () => fullParticipantBody(role!.id, program!.id)],
    ];
    for (const [kind, body] of creates) {
      let answered: unknown;
      const events = await eventsOf(1, async () => {
        const answer = await api.post(PATHS[kind], body());
        answered = dataOf(answer, 201);
      });
      expect(events, `events of creating a ${kind}`).toEqual([{ type: `${kind}.created`, workspaceId: acmeId, data: answered }]);
      if (kind === 'role') role = answered as Role;
      if (kind === 'interviewer') interviewer = answered as Interviewer;
      if (kind === 'program') program = answered as Program;
    }
  });

  it('carries the id of the workspace that created it', async () => {
    let answered: unknown;
    const events = await eventsOf(1, async () => {
      answered = await createRole(otherApi, minimalRoleBody('training'));
    });
    expect(events).toEqual([{ type: 'role.created', workspaceId: otherId, data: answered }]);
  });

  it('emits interviewer.created for a fork, with the fork', async () => {
    const source = await createInterviewer(otherApi, { ...fullInterviewerBody(), isPublic: true });
    let fork: unknown;
    const events = await eventsOf(1, async () => {
      fork = dataOf(await api.post('/api/v1/interviewers?action=fork', { sourceId: source.id }), 201);
    });
    expect(events).toEqual([{ type: 'interviewer.created', workspaceId: acmeId, data: fork }]);
  });

  it('emits participant.created for each participant a bulk import created, and none for the rejected', async () => {
    const email = `bulk.${Date.now()}@example.com`;
    let result: BulkResult | undefined;
    const events = await eventsOf(2, async () => {
      const answer = await api.post('/api/v1/participants/bulk', {
        participants: [
          { name: 'One', email },
          { name: 'Duplicate', email: email.toUpperCase() },
          { name: 'Two', email: `two.${email}` },
          { name: 'Bad', email: 'nope' },
        ],
      });
      result = dataOf<BulkResult>(answer, 200);
      expect(result.created, explain(answer)).toBe(2);
    });
    const createdIds = result!.results.filter((item) => item.status === 'created').map((item) => item.id);
    expect(events.map((event) => event.type)).toEqual(['participant.created', 'participant.created']);
    expect(events.every((event) => event.workspaceId === acmeId)).toBe(true);
    expect(events.map((event) => (event.data as Participant).id).sort()).toEqual([...createdIds].sort());
    for (const event of events) {
      const id = (event.data as Participant).id;
      expect(event.data, 'the event carries the participant as stored').toEqual(dataOf(await api.get(`/api/v1/participants/${id}`), 200));
    }
  });

  it('emits nothing for a refused create, an update or a delete', async () => {
    const participant = await createParticipant(api);
    const refused = await eventsOf(0, async () => {
      expectError(await api.post('/api/v1/participants', { name: 'Clash', email: participant.email.toUpperCase() }), 409);
      expectError(await api.post('/api/v1/roles', { template_name: 'No use case' }), 400);
      expectError(
        await api.post('/api/v1/interviewers', {
          ...fullInterviewerBody(),
          evaluationDimensions: [{ name: 'A', description: 'a', weight: 99 }],
        }),
        400,
      );
      // A fork of nothing: the docs leave 400 or 404 open; never a create.
      const fork = await api.post('/api/v1/interviewers?action=fork', { sourceId: '00000000-0000-4000-8000-000000000000' });
      expect([400, 404], explain(fork)).toContain(fork.status);
    });
    expect(refused, 'events of refused creates').toEqual([]);

    const changed = await eventsOf(0, async () => {
      expectStatus(await api.patch(`/api/v1/participants/${participant.id}`, { tags: ['x'] }), 200);
      expectStatus(await api.delete(`/api/v1/participants/${participant.id}`), 204);
    });
    expect(
      changed.filter((event) => event.type.endsWith('.created')),
      'an update or delete creates nothing',
    ).toEqual([]);
  });
});
