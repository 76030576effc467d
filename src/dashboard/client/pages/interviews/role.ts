import { api } from '../../kit/api.js';
import { h } from '../../kit/dom.js';
import { form } from '../../kit/form.js';
import { table } from '../../kit/table.js';
import { figure, words } from './format.js';
import { byId, LARGEST_PAGE, newest } from './lookup.js';
import { LIFECYCLE_STATUSES, type Interviewer, type ListOf, type One, type Role, type Round } from './model.js';
import { creator, facts, layout, link, redrawable, section } from './parts.js';
import { choices, numberOf, text, unset } from './values.js';

/** A role has a handful of rounds: one page of the largest size holds them; a role with more says so. */
async function roundsTable(roleId: string): Promise<Node> {
  const rounds = await api<ListOf<Round>>('GET', '/rounds', undefined, { roleId, pageSize: LARGEST_PAGE });
  const interviewers = await byId<Interviewer>(
    '/interviewers',
    rounds.data.map((round) => round.interviewer_id),
  );
  const more =
    rounds.meta.total > rounds.data.length ? h('p', null, `Showing the first ${rounds.data.length} of ${rounds.meta.total} rounds.`) : null;
  return h(
    'div',
    null,
    table<Round>(
      [
        { label: 'Order', cell: (round) => round.stage_order },
        { label: 'Round', cell: (round) => round.stage_name },
        { label: 'Type', cell: (round) => round.stage_type ?? '—' },
        {
          label: 'Interviewer',
          cell: (round) => {
            if (round.interviewer_id === null) return 'none';
            const interviewer = interviewers.get(round.interviewer_id);
            return link(`#/interviewers/${round.interviewer_id}`, interviewer?.name ?? round.interviewer_id);
          },
        },
        { label: 'Duration', cell: (round) => `${round.duration_minutes} min` },
        {
          label: 'Pass threshold',
          cell: (round) => (round.pass_threshold === null ? '70 % (default)' : `${figure(round.pass_threshold)} %`),
        },
        { label: 'Status', cell: (round) => round.status },
      ],
      rounds.data,
      'No rounds yet: add the first below.',
    ),
    more,
  );
}

function addRoundForm(roleId: string, interviewers: Interviewer[], done: (round: Round) => Promise<void>): HTMLFormElement {
  const element = form(
    [
      { name: 'stage_name', label: 'Round name', required: true },
      { name: 'stage_type', label: 'Type', hint: 'For example screen, technical, final' },
      {
        name: 'interviewer_id',
        label: 'Interviewer',
        type: 'select',
        options: [unset('No interviewer'), ...interviewers.map((interviewer) => ({ value: interviewer.id, label: interviewer.name }))],
      },
      { name: 'stage_order', label: 'Order', type: 'number', hint: 'After the last round when left empty' },
      { name: 'duration_minutes', label: 'Duration (minutes)', type: 'number', hint: "The role's default when left empty" },
      { name: 'pass_threshold', label: 'Pass threshold (%)', type: 'number', hint: '0 to 100; 70 when left empty' },
      { name: 'difficulty', label: 'Difficulty' },
      { name: 'status', label: 'Status', type: 'select', options: choices(LIFECYCLE_STATUSES), value: 'active' },
    ],
    'Add round',
    async (values) => {
      const body = {
        role_id: roleId,
        stage_name: text(values, 'stage_name'),
        stage_type: text(values, 'stage_type'),
        interviewer_id: text(values, 'interviewer_id'),
        stage_order: numberOf(values, 'stage_order'),
        duration_minutes: numberOf(values, 'duration_minutes'),
        pass_threshold: numberOf(values, 'pass_threshold'),
        difficulty: text(values, 'difficulty'),
        status: text(values, 'status'),
      };
      const created = await api<One<Round>>('POST', '/rounds', body);
      element.reset();
      await done(created.data);
    },
  );
  return element;
}

export async function rolePage(params: Record<string, string>): Promise<Node> {
  const [role, interviewers] = await Promise.all([
    api<One<Role>>('GET', `/roles/${params.id}`).then((answer) => answer.data),
    newest<Interviewer>('/interviewers'),
  ]);
  const rounds = redrawable(() => roundsTable(role.id));
  await rounds.redraw('');
  return layout(
    role.template_name,
    facts([
      ['Use case', words(role.use_case)],
      ['Status', role.status],
      ['Outcome', words(role.success_outcome)],
      ['Default duration', `${role.default_duration_minutes} min`],
      ['Skills', role.skills.length > 0 ? role.skills.join(', ') : null],
      ['Objective', role.objective],
      ['Description', role.description],
    ]),
    section('rounds-heading', 'Rounds, in order', rounds.element),
    creator(
      'Add a round',
      addRoundForm(role.id, interviewers, (round) => rounds.redraw(`Round ${round.stage_name} added.`)),
    ),
    h('p', null, link(`#/sessions?roleId=${role.id}`, 'Sessions of this role')),
  );
}
