import { api } from '../../kit/api.js';
import { form } from '../../kit/form.js';
import { navigate } from '../../kit/router.js';
import { table } from '../../kit/table.js';
import { filterForm, filtersOf, pageOf, pagerOf } from './listing.js';
import { LIFECYCLE_STATUSES, USE_CASES, type ListOf, type One, type Role } from './model.js';
import { creator, layout, link } from './parts.js';
import { choices, listOf, numberOf, text, unset } from './values.js';
import { words } from './format.js';

const BASE = '#/roles';
const FILTERS = ['search', 'status', 'useCase'];

function createRoleForm(): HTMLFormElement {
  return form(
    [
      { name: 'template_name', label: 'Name', required: true },
      { name: 'use_case', label: 'Use case', type: 'select', required: true, options: choices(USE_CASES) },
      { name: 'description', label: 'Description', type: 'textarea', required: true },
      { name: 'objective', label: 'Objective', type: 'textarea', required: true },
      { name: 'skills', label: 'Skills', hint: 'Separated by commas' },
      { name: 'default_duration_minutes', label: 'Default duration (minutes)', type: 'number', hint: '5 to 480; 30 when left empty' },
    ],
    'Create role',
    async (values) => {
      const body = {
        template_name: text(values, 'template_name'),
        use_case: text(values, 'use_case'),
        description: text(values, 'description'),
        objective: text(values, 'objective'),
        skills: listOf(values, 'skills'),
        default_duration_minutes: numberOf(values, 'default_duration_minutes'),
      };
      const created = await api<One<Role>>('POST', '/roles', body);
      navigate(`${BASE}/${created.data.id}`);
    },
  );
}

export async function rolesPage(_params: Record<string, string>, query: URLSearchParams): Promise<Node> {
  const list = await api<ListOf<Role>>('GET', '/roles', undefined, { ...filtersOf(query, FILTERS), page: pageOf(query) });
  return layout(
    'Roles',
    creator('New role', createRoleForm(), list.meta.total === 0),
    filterForm(
      BASE,
      [
        { name: 'search', label: 'Name contains' },
        { name: 'status', label: 'Status', type: 'select', options: [unset('Any status'), ...choices(LIFECYCLE_STATUSES)] },
        { name: 'useCase', label: 'Use case', type: 'select', options: [unset('Any use case'), ...choices(USE_CASES)] },
      ],
      query,
    ),
    table<Role>(
      [
        { label: 'Name', cell: (role) => link(`${BASE}/${role.id}`, role.template_name) },
        { label: 'Use case', cell: (role) => words(role.use_case) },
        { label: 'Status', cell: (role) => role.status },
        { label: 'Default duration', cell: (role) => `${role.default_duration_minutes} min` },
      ],
      list.data,
      'No roles yet.',
    ),
    pagerOf(BASE, list, query, FILTERS),
  );
}
