import { api } from '../../kit/api.js';
import { form } from '../../kit/form.js';
import { navigate } from '../../kit/router.js';
import { table } from '../../kit/table.js';
import { DIMENSIONS_HINT, dimensionList, parseDimensions } from './dimensions.js';
import { words } from './format.js';
import { filterForm, filtersOf, pageOf, pagerOf } from './listing.js';
import { DEFAULT_SCALE, SCALES, USE_CASES, type Interviewer, type ListOf, type One } from './model.js';
import { creator, layout, link } from './parts.js';
import { choices, text, unset } from './values.js';

const BASE = '#/interviewers';
const FILTERS = ['useCase', 'scope'];

function createInterviewerForm(): HTMLFormElement {
  return form(
    [
      { name: 'name', label: 'Name', required: true },
      { name: 'persona', label: 'Persona', type: 'textarea', required: true },
      { name: 'useCase', label: 'Use case', type: 'select', required: true, options: choices(USE_CASES) },
      { name: 'evaluationDimensions', label: 'Evaluation dimensions', type: 'textarea', required: true, hint: DIMENSIONS_HINT },
      { name: 'scoring.scale', label: 'Scale', type: 'select', options: choices(SCALES), value: DEFAULT_SCALE },
      { name: 'isPublic', label: 'Publish to the shared library', type: 'checkbox' },
    ],
    'Create interviewer',
    async (values) => {
      const body = {
        name: text(values, 'name'),
        persona: text(values, 'persona'),
        useCase: text(values, 'useCase'),
        evaluationDimensions: parseDimensions(text(values, 'evaluationDimensions') ?? ''),
        scoring: { scale: text(values, 'scoring.scale') },
        isPublic: values.isPublic === true,
      };
      const created = await api<One<Interviewer>>('POST', '/interviewers', body);
      navigate(`${BASE}/${created.data.id}`);
    },
  );
}

export async function interviewersPage(_params: Record<string, string>, query: URLSearchParams): Promise<Node> {
  const list = await api<ListOf<Interviewer>>('GET', '/interviewers', undefined, { ...filtersOf(query, FILTERS), page: pageOf(query) });
  return layout(
    'Interviewers',
    creator('New interviewer', createInterviewerForm(), list.meta.total === 0),
    filterForm(
      BASE,
      [
        { name: 'useCase', label: 'Use case', type: 'select', options: [unset('Any use case'), ...choices(USE_CASES)] },
        {
          name: 'scope',
          label: 'Library',
          type: 'select',
          options: [unset('This workspace'), { value: 'public', label: 'Public, every workspace' }],
        },
      ],
      query,
    ),
    table<Interviewer>(
      [
        { label: 'Name', cell: (interviewer) => link(`${BASE}/${interviewer.id}`, interviewer.name) },
        { label: 'Use case', cell: (interviewer) => words(interviewer.useCase) },
        { label: 'Scale', cell: (interviewer) => interviewer.scoring?.scale ?? DEFAULT_SCALE },
        { label: 'Dimensions and weights', cell: (interviewer) => dimensionList(interviewer.evaluationDimensions) },
        { label: 'Public', cell: (interviewer) => (interviewer.isPublic ? 'yes' : 'no') },
      ],
      list.data,
      'No interviewers yet.',
    ),
    pagerOf(BASE, list, query, FILTERS),
  );
}
