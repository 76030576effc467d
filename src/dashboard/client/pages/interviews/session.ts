import { api } from '../../kit/api.js';
import { h } from '../../kit/dom.js';
import { when, words } from './format.js';
import { byId, readOrNull } from './lookup.js';
import type { One, Participant, Recording, Role, Round, Scorecard, Session, StatusChange, Transcript } from './model.js';
import { facts, layout, link, section } from './parts.js';
import { scorecardView } from './scorecard.js';

function history(changes: StatusChange[], timeZone: string): HTMLElement {
  return h(
    'ol',
    { class: 'iv-history' },
    changes.map((change) =>
      h(
        'li',
        null,
        h('span', { class: `iv-badge iv-badge-${change.status}` }, words(change.status)),
        ' ',
        h('time', { datetime: change.at }, when(change.at, timeZone)),
        change.reason ? h('span', { class: 'iv-reason' }, ` — ${change.reason}`) : null,
      ),
    ),
  );
}

function transcriptView(transcript: Transcript | null, timeZone: string): Node {
  if (transcript === null || transcript.transcript.length === 0) return h('p', null, 'No transcript yet.');
  return h(
    'ol',
    { class: 'iv-transcript' },
    transcript.transcript.map((turn) =>
      h(
        'li',
        null,
        h('p', { class: 'iv-turn-head' }, h('strong', null, turn.speaker), ' ', h('time', { datetime: turn.at }, when(turn.at, timeZone))),
        h('p', { class: 'iv-turn-text' }, turn.text),
      ),
    ),
  );
}

/** Only http(s) addresses become links (the API accepts no other); anything else would be shown, never followed. */
function recordingView(recording: Recording | null): Node {
  if (recording === null) return h('p', null, 'No recording yet.');
  const url = recording.recording_url;
  if (!/^https?:\/\//i.test(url)) return h('p', null, url);
  return h('p', null, h('a', { href: url, rel: 'noopener noreferrer', target: '_blank' }, 'Open the recording'), ` (${url})`);
}

export async function sessionPage(params: Record<string, string>): Promise<Node> {
  const session = (await api<One<Session>>('GET', `/sessions/${params.id}`)).data;
  const [participants, roles, rounds, scorecard, transcript, recording] = await Promise.all([
    byId<Participant>('/participants', [session.candidate_id]),
    byId<Role>('/roles', [session.role_id]),
    byId<Round>('/rounds', [session.interview_id]),
    // Each is a 404 until the interview engine reports it.
    readOrNull<Scorecard>(`/sessions/${session.id}/scorecard`),
    readOrNull<Transcript>(`/sessions/${session.id}/transcript`),
    readOrNull<Recording>(`/sessions/${session.id}/recording`),
  ]);
  const participant = participants.get(session.candidate_id);
  const role = roles.get(session.role_id);
  const round = rounds.get(session.interview_id);
  const zone = session.timezone;
  return layout(
    `Session of ${participant?.name ?? 'a participant'}`,
    facts([
      [
        'Participant',
        participant ? link(`#/participants/${participant.id}`, `${participant.name} <${participant.email}>`) : session.candidate_id,
      ],
      ['Role', role ? link(`#/roles/${role.id}`, role.template_name) : session.role_id],
      ['Round', round ? `${round.stage_order}. ${round.stage_name}` : session.interview_id],
      ['Status', h('span', { class: `iv-badge iv-badge-${session.status}` }, words(session.status))],
      ['Scheduled', session.scheduled_at ? `${when(session.scheduled_at, zone)} (${zone})` : 'to be arranged'],
      ['Started', session.started_at ? when(session.started_at, zone) : null],
      ['Ended', session.ended_at ? when(session.ended_at, zone) : null],
      ['Stage label', session.stage],
      ['Failure reason', session.failure_reason],
      ['Internal notes', session.notes],
    ]),
    section('history-heading', 'Status history', history(session.status_history, zone)),
    section(
      'scorecard-heading',
      'Scorecard',
      scorecard ? scorecardView(scorecard, zone) : h('p', null, `No scorecard yet (the session is ${words(session.status)}).`),
    ),
    section('transcript-heading', 'Transcript', transcriptView(transcript, zone)),
    section('recording-heading', 'Recording', recordingView(recording)),
  );
}
