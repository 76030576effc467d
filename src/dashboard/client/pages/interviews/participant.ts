import { api } from '../../kit/api.js';
import { filterForm, filtersOf, pageOf, pagerOf } from './listing.js';
import { byId } from './lookup.js';
import { SESSION_STATUSES, type ListOf, type One, type Participant, type Role, type Session } from './model.js';
import { creator, facts, layout, link, section } from './parts.js';
import { sessionForm } from './session-form.js';
import { sessionTable } from './session-table.js';
import { choices, unset } from './values.js';

const FILTERS = ['status'];

export async function participantPage(params: Record<string, string>, query: URLSearchParams): Promise<Node> {
  const base = `#/participants/${params.id}`;
  const [participant, sessions] = await Promise.all([
    api<One<Participant>>('GET', `/participants/${params.id}`).then((answer) => answer.data),
    api<ListOf<Session>>('GET', `/participants/${params.id}/sessions`, undefined, { ...filtersOf(query, FILTERS), page: pageOf(query) }),
  ]);
  const role = (await byId<Role>('/roles', [participant.role_id])).get(participant.role_id ?? '');
  return layout(
    participant.name,
    facts([
      ['Email', participant.email],
      ['Role', role ? link(`#/roles/${role.id}`, role.template_name) : null],
      ['Status', participant.status],
      ['External id', participant.external_id],
      ['Phone', participant.phone],
      ['Tags', participant.tags.length > 0 ? participant.tags.join(', ') : null],
    ]),
    section(
      'sessions-heading',
      'Sessions',
      filterForm(
        base,
        [{ name: 'status', label: 'Status', type: 'select', options: [unset('Any status'), ...choices(SESSION_STATUSES)] }],
        query,
      ),
      await sessionTable(sessions.data, 'No sessions.'),
      pagerOf(base, sessions, query, FILTERS),
    ),
    creator('Schedule a session', await sessionForm(participant)),
  );
}
