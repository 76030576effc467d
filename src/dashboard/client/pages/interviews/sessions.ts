import { api } from '../../kit/api.js';
import { filterForm, filtersOf, isFiltered, pageOf, pagerOf } from './listing.js';
import { newest } from './lookup.js';
import { SESSION_STATUSES, type ListOf, type Program, type Role, type Round, type Session } from './model.js';
import { creator, layout } from './parts.js';
import { sessionForm } from './session-form.js';
import { sessionTable } from './session-table.js';
import { choices, unset } from './values.js';

const BASE = '#/sessions';
/** The API's filters (src/resources/sessions/shapes.ts, sessionListQuery); participantId comes from links only. */
const FILTERS = ['search', 'participantEmail', 'participantId', 'roleId', 'roundId', 'status', 'programId'];

export async function sessionsPage(_params: Record<string, string>, query: URLSearchParams): Promise<Node> {
  const [list, roles, rounds, programs] = await Promise.all([
    api<ListOf<Session>>('GET', '/sessions', undefined, { ...filtersOf(query, FILTERS), page: pageOf(query) }),
    newest<Role>('/roles'),
    newest<Round>('/rounds'),
    newest<Program>('/programs'),
  ]);
  const roleNames = new Map(roles.map((role) => [role.id, role.template_name]));
  return layout(
    'Sessions',
    creator('Schedule a session', await sessionForm()),
    filterForm(
      BASE,
      [
        { name: 'search', label: 'Participant name contains' },
        { name: 'participantEmail', label: 'Participant email', type: 'email' },
        { name: 'status', label: 'Status', type: 'select', options: [unset('Any status'), ...choices(SESSION_STATUSES)] },
        {
          name: 'roleId',
          label: 'Role',
          type: 'select',
          options: [unset('Any role'), ...roles.map((role) => ({ value: role.id, label: role.template_name }))],
        },
        {
          name: 'roundId',
          label: 'Round',
          type: 'select',
          options: [
            unset('Any round'),
            ...rounds.map((round) => ({ value: round.id, label: `${roleNames.get(round.role_id) ?? 'Role'}: ${round.stage_name}` })),
          ],
        },
        {
          name: 'programId',
          label: 'Program',
          type: 'select',
          options: [unset('Any program'), ...programs.map((program) => ({ value: program.id, label: program.name }))],
        },
      ],
      query,
    ),
    await sessionTable(list.data, !isFiltered(query, FILTERS) ? 'No sessions yet.' : 'No session matches these filters.'),
    pagerOf(BASE, list, query, FILTERS),
  );
}
