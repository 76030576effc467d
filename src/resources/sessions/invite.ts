import { createEvent } from 'ics';
import addressparser from 'nodemailer/lib/addressparser';
import type { MailMessage } from '../../platform/index.js';

export interface InviteInput {
  kind: 'invite' | 'update';
  sessionId: string;
  /** ISO 8601; null while the time is still to be arranged. */
  scheduledAt: string | null;
  /** An IANA time zone name, already validated. */
  timezone: string;
  durationMinutes: number;
  participant: { name: string; email: string };
  roleName: string;
  roundName: string;
  /** The sender, as in MAIL_FROM ("Name <address>" or a bare address); the calendar's organizer. */
  from: string;
  /** The calendar SEQUENCE; by default 0 for an invite and 1 for an update. Pass a count of reschedules to keep it rising. */
  sequence?: number;
}

/** Calendars replace an event whose UID they already hold, so every invite of one session carries the same UID. */
const UID_DOMAIN = 'sessions.code-runner';

/** The invitation (or the notice of a new time) for a session's participant: text, HTML and, once a time is set, an .ics request. */
export function composeInvite(input: InviteInput): MailMessage {
  const title = `${input.roleName} – ${input.roundName}`;
  const subject = `${input.kind === 'invite' ? 'Interview invitation' : 'Updated interview time'}: ${title}`;
  const at = input.scheduledAt === null ? null : new Date(input.scheduledAt);
  const when = at === null ? null : whenLines(at, input.timezone);
  const paragraphs = [
    `Hello ${input.participant.name},`,
    input.kind === 'invite'
      ? `You are invited to an interview for the role ${input.roleName}, round ${input.roundName}.`
      : `The time of your interview for the role ${input.roleName}, round ${input.roundName}, has changed.`,
    when === null ? 'The time will be arranged with you.' : `When: ${when.local}\nIn UTC: ${when.utc}`,
    `Duration: ${input.durationMinutes} minutes`,
    ...(when === null ? [] : ['The calendar invitation is attached.']),
  ];
  const message: MailMessage = {
    to: input.participant.email,
    subject,
    text: `${paragraphs.join('\n\n')}\n`,
    html: paragraphs.map((p) => `<p>${escapeHtml(p).replaceAll('\n', '<br>')}</p>`).join('\n'),
  };
  if (at !== null) message.calendar = { filename: 'invite.ics', method: 'REQUEST', content: calendar(input, at, title) };
  return message;
}

function whenLines(at: Date, timezone: string): { local: string; utc: string } {
  return { local: `${formatIn(at, timezone)} (${timezone})`, utc: `${formatIn(at, 'UTC')} (UTC)` };
}

/** "Tuesday, 1 December 2026, 15:00", assembled from parts so that it does not depend on the locale's joining words. */
function formatIn(at: Date, timeZone: string): string {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const part = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return `${part.weekday}, ${part.day} ${part.month} ${part.year}, ${part.hour}:${part.minute}`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** A quoted iCalendar parameter (CN) cannot hold a double quote or control characters at all (RFC 5545 §3.1). */
function parameterSafe(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/"/g, "'").replace(/[\u0000-\u001f\u007f]/g, ' ');
}

function calendar(input: InviteInput, at: Date, title: string): string {
  const [sender] = addressparser(input.from, { flatten: true });
  const { error, value } = createEvent({
    method: 'REQUEST',
    productId: 'code-runner/sessions',
    uid: `${input.sessionId}@${UID_DOMAIN}`,
    sequence: input.sequence ?? (input.kind === 'invite' ? 0 : 1),
    start: at.getTime(),
    startInputType: 'utc',
    startOutputType: 'utc',
    duration: { minutes: input.durationMinutes },
    title: `Interview: ${title}`,
    description: `Interview for the role ${input.roleName}, round ${input.roundName}.`,
    status: 'CONFIRMED',
    organizer: { name: parameterSafe(sender?.name || sender?.address || input.from), email: sender?.address ?? input.from },
    attendees: [
      {
        name: parameterSafe(input.participant.name),
        email: input.participant.email,
        rsvp: true,
        role: 'REQ-PARTICIPANT',
        partstat: 'NEEDS-ACTION',
      },
    ],
  });
  // The inputs are checked before they get here, so a refusal is a programming error, not the caller's.
  if (error || value === null) throw new Error(`cannot build the calendar invitation: ${error?.message ?? 'no output'}`);
  return value;
}
