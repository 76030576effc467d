import { api } from '../../kit/api.js';
import { form, type Field } from '../../kit/form.js';
import { navigate } from '../../kit/router.js';
import { newest } from './lookup.js';
import type { One, Participant, Role, Round, Session } from './model.js';
import { instantOf, text, unset } from './values.js';

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Scheduling a session. `candidate` fixes the participant (on the participant's page); without it the form offers the
 * newest participants. The round may be left to the API (the role's first active round). Creating one spends a credit
 * and sends the invite, so the form says so.
 */
export async function sessionForm(candidate?: Participant): Promise<HTMLFormElement> {
  const [participants, roles, rounds] = await Promise.all([
    candidate ? Promise.resolve([candidate]) : newest<Participant>('/participants', { status: 'active' }),
    newest<Role>('/roles', { status: 'active' }),
    newest<Round>('/rounds'),
  ]);
  const roleNames = new Map(roles.map((role) => [role.id, role.template_name]));
  const fields: Field[] = [
    {
      name: 'candidate_id',
      label: 'Participant',
      type: 'select',
      required: true,
      options: participants.map((participant) => ({ value: participant.id, label: `${participant.name} <${participant.email}>` })),
      value: candidate?.id,
    },
    {
      name: 'role_id',
      label: 'Role',
      type: 'select',
      required: true,
      options: [unset('Choose a role'), ...roles.map((role) => ({ value: role.id, label: role.template_name }))],
      value: candidate?.role_id ?? '',
    },
    {
      name: 'interview_id',
      label: 'Round',
      type: 'select',
      hint: "The round must belong to the role; left to the role's first active round when not chosen",
      options: [
        unset("The role's first active round"),
        ...rounds
          .filter((round) => roleNames.has(round.role_id))
          .map((round) => ({ value: round.id, label: `${roleNames.get(round.role_id)}: ${round.stage_order}. ${round.stage_name}` })),
      ],
    },
    { name: 'scheduled_at', label: 'Time', type: 'datetime-local', hint: 'In your time zone; leave empty to arrange the time later' },
    { name: 'timezone', label: 'Time zone of the invite', value: browserZone(), hint: 'An IANA name such as Europe/Paris' },
    { name: 'stage', label: 'Stage label', hint: 'For example screen, technical, final' },
    { name: 'notes', label: 'Internal notes', type: 'textarea', hint: 'Never shown to the participant; at most 1000 characters' },
    { name: 'force', label: 'Schedule even if the participant has an open session in this round', type: 'checkbox' },
  ];
  return form(fields, 'Schedule and send invite', async (values) => {
    const body = {
      candidate_id: text(values, 'candidate_id'),
      role_id: text(values, 'role_id'),
      interview_id: text(values, 'interview_id'),
      scheduled_at: instantOf(values, 'scheduled_at'),
      timezone: text(values, 'timezone'),
      stage: text(values, 'stage'),
      notes: text(values, 'notes'),
      force: values.force === true,
    };
    const created = await api<One<Session>>('POST', '/sessions', body);
    navigate(`#/sessions/${created.data.id}`);
  });
}
