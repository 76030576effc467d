import { api } from '../../kit/api.js';
import { form } from '../../kit/form.js';
import { navigate } from '../../kit/router.js';
import { table } from '../../kit/table.js';
import { filterForm, filtersOf, isFiltered, pageOf, pagerOf } from './listing.js';
import { byId, newest } from './lookup.js';
import type { ListOf, One, Participant, Program, Role } from './model.js';
import { creator, layout, link } from './parts.js';
import { choices, listOf, text, unset } from './values.js';

const BASE = '#/participants';
const FILTERS = ['search', 'status', 'roleId', 'pipelineId'];

const optionsOf = (items: { id: string; name: string }[]) => items.map((item) => ({ value: item.id, label: item.name }));

function createParticipantForm(roles: Role[], programs: Program[]): HTMLFormElement {
  return form(
    [
      { name: 'name', label: 'Name', required: true },
      { name: 'email', label: 'Email', type: 'email', required: true },
      {
        name: 'role_id',
        label: 'Role',
        type: 'select',
        options: [unset('No role'), ...roles.map((role) => ({ value: role.id, label: role.template_name }))],
      },
      { name: 'pipeline_id', label: 'Program', type: 'select', options: [unset('No program'), ...optionsOf(programs)] },
      { name: 'external_id', label: 'External id', hint: 'Your own system’s id, sent back in webhook events' },
      { name: 'phone', label: 'Phone' },
      { name: 'tags', label: 'Tags', hint: 'Separated by commas' },
    ],
    'Create participant',
    async (values) => {
      const body = {
        name: text(values, 'name'),
        email: text(values, 'email'),
        role_id: text(values, 'role_id'),
        pipeline_id: text(values, 'pipeline_id'),
        external_id: text(values, 'external_id'),
        phone: text(values, 'phone'),
        tags: listOf(values, 'tags'),
      };
      const created = await api<One<Participant>>('POST', '/participants', body);
      navigate(`${BASE}/${created.data.id}`);
    },
  );
}

export async function participantsPage(_params: Record<string, string>, query: URLSearchParams): Promise<Node> {
  const [list, roles, programs] = await Promise.all([
    api<ListOf<Participant>>('GET', '/participants', undefined, { ...filtersOf(query, FILTERS), page: pageOf(query) }),
    newest<Role>('/roles'),
    newest<Program>('/programs'),
  ]);
  // A participant's role may be older than the newest roles the picker holds.
  const roleNames = await byId<Role>(
    '/roles',
    list.data.map((participant) => participant.role_id).filter((id) => !roles.some((role) => role.id === id)),
  );
  for (const role of roles) roleNames.set(role.id, role);
  return layout(
    'Participants',
    creator('New participant', createParticipantForm(roles, programs), list.meta.total === 0 && !isFiltered(query, FILTERS)),
    filterForm(
      BASE,
      [
        { name: 'search', label: 'Name or email contains' },
        { name: 'status', label: 'Status', type: 'select', options: [unset('Any status'), ...choices(['active', 'archived'])] },
        {
          name: 'roleId',
          label: 'Role',
          type: 'select',
          options: [unset('Any role'), ...roles.map((role) => ({ value: role.id, label: role.template_name }))],
        },
        { name: 'pipelineId', label: 'Program', type: 'select', options: [unset('Any program'), ...optionsOf(programs)] },
      ],
      query,
    ),
    table<Participant>(
      [
        { label: 'Name', cell: (participant) => link(`${BASE}/${participant.id}`, participant.name) },
        { label: 'Email', cell: (participant) => participant.email },
        {
          label: 'Role',
          cell: (participant) => (participant.role_id ? (roleNames.get(participant.role_id)?.template_name ?? participant.role_id) : '—'),
        },
        { label: 'Tags', cell: (participant) => participant.tags.join(', ') || '—' },
        { label: 'Status', cell: (participant) => participant.status },
      ],
      list.data,
      !isFiltered(query, FILTERS) ? 'No participants yet.' : 'No participant matches these filters.',
    ),
    pagerOf(BASE, list, query, FILTERS),
  );
}
