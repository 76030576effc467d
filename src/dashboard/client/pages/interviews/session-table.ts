import { h } from '../../kit/dom.js';
import { table } from '../../kit/table.js';
import { when, words } from './format.js';
import { byId } from './lookup.js';
import type { Participant, Role, Round, Session } from './model.js';
import { link } from './parts.js';

/** A page of sessions with the names of their participants, roles and rounds (each read once). */
export async function sessionTable(sessions: Session[], empty: string): Promise<HTMLElement> {
  const [participants, roles, rounds] = await Promise.all([
    byId<Participant>(
      '/participants',
      sessions.map((session) => session.candidate_id),
    ),
    byId<Role>(
      '/roles',
      sessions.map((session) => session.role_id),
    ),
    byId<Round>(
      '/rounds',
      sessions.map((session) => session.interview_id),
    ),
  ]);
  return table<Session>(
    [
      {
        label: 'Session',
        cell: (session) =>
          link(
            `#/sessions/${session.id}`,
            `${participants.get(session.candidate_id)?.name ?? 'Participant'}, ${rounds.get(session.interview_id)?.stage_name ?? 'round'}`,
          ),
      },
      {
        label: 'Participant',
        cell: (session) =>
          link(`#/participants/${session.candidate_id}`, participants.get(session.candidate_id)?.email ?? session.candidate_id),
      },
      {
        label: 'Role',
        cell: (session) => link(`#/roles/${session.role_id}`, roles.get(session.role_id)?.template_name ?? session.role_id),
      },
      { label: 'Round', cell: (session) => rounds.get(session.interview_id)?.stage_name ?? session.interview_id },
      { label: 'Status', cell: (session) => h('span', { class: `iv-badge iv-badge-${session.status}` }, words(session.status)) },
      { label: 'Scheduled', cell: (session) => when(session.scheduled_at, session.timezone) },
    ],
    sessions,
    empty,
  );
}
