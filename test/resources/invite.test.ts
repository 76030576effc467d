import { describe, expect, it } from 'vitest';
import { composeInvite, type InviteInput } from '../../src/resources/sessions/invite.js';

const SESSION_ID = '7b0c1f0e-6a2d-4c7e-9a51-3f7f0e2b9d11';

function input(overrides: Partial<InviteInput> = {}): InviteInput {
  return {
    kind: 'invite',
    sessionId: SESSION_ID,
    scheduledAt: '2026-12-01T14:00:00.000Z',
    timezone: 'Europe/Berlin',
    durationMinutes: 45,
    participant: { name: 'Ada Lovelace', email: 'ada@example.com' },
    roleName: 'Backend Engineer',
    roundName: 'Technical screen',
    from: 'Interviews <no-reply@localhost>',
    ...overrides,
  };
}

/** The content lines of an .ics text, with folded lines joined back (RFC 5545 §3.1). */
function icsLines(content: string): string[] {
  expect(content, 'lines end with CRLF').not.toMatch(/[^\r]\n/);
  return content
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter(Boolean);
}

function calendarOf(message: ReturnType<typeof composeInvite>): string[] {
  expect(message.calendar, 'a calendar part').toBeDefined();
  return icsLines(message.calendar!.content);
}

describe('composeInvite', () => {
  it('addresses the participant and names role, round, duration and time in both parts', () => {
    const message = composeInvite(input());
    expect(message.to).toBe('ada@example.com');
    expect(message.subject).toBe('Interview invitation: Backend Engineer – Technical screen');
    for (const part of [message.text, message.html]) {
      expect(part).toContain('Ada Lovelace');
      expect(part).toContain('Backend Engineer');
      expect(part).toContain('Technical screen');
      expect(part).toContain('45 minutes');
      expect(part).toContain('Tuesday, 1 December 2026, 15:00 (Europe/Berlin)');
      expect(part).toContain('Tuesday, 1 December 2026, 14:00 (UTC)');
    }
    expect(message.html).toMatch(/^<p>/);
    expect(message.calendar).toMatchObject({ filename: 'invite.ics', method: 'REQUEST' });
  });

  it('says that the time changed in an update', () => {
    const message = composeInvite(input({ kind: 'update' }));
    expect(message.subject).toBe('Updated interview time: Backend Engineer – Technical screen');
    expect(message.text).toContain('has changed');
  });

  it('shows the local time on each side of a daylight saving change', () => {
    // Berlin leaves summer time on 25 October 2026: 15:00 local is 13:00 UTC before and 14:00 UTC after.
    const before = composeInvite(input({ scheduledAt: '2026-10-24T13:00:00Z' }));
    const after = composeInvite(input({ scheduledAt: '2026-10-26T14:00:00Z' }));
    expect(before.text).toContain('Saturday, 24 October 2026, 15:00 (Europe/Berlin)');
    expect(before.text).toContain('Saturday, 24 October 2026, 13:00 (UTC)');
    expect(after.text).toContain('Monday, 26 October 2026, 15:00 (Europe/Berlin)');
    expect(after.text).toContain('Monday, 26 October 2026, 14:00 (UTC)');
    expect(calendarOf(before)).toContain('DTSTART:20261024T130000Z');
    expect(calendarOf(after)).toContain('DTSTART:20261026T140000Z');
  });

  it('renders a zone west of UTC on its own date', () => {
    const message = composeInvite(input({ scheduledAt: '2026-03-08T03:30:00Z', timezone: 'America/Los_Angeles' }));
    expect(message.text).toContain('Saturday, 7 March 2026, 19:30 (America/Los_Angeles)');
    expect(message.text).toContain('Sunday, 8 March 2026, 03:30 (UTC)');
  });

  it('keeps user text as text in the HTML part', () => {
    const attack = '<img src=x onerror=alert(1)>';
    const message = composeInvite(
      input({ participant: { name: attack, email: 'ada@example.com' }, roleName: 'R&D "lead"', roundName: "<script>x</script>'" }),
    );
    expect(message.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(message.html).toContain('R&amp;D &quot;lead&quot;');
    expect(message.html).toContain('&lt;script&gt;x&lt;/script&gt;&#39;');
    const tags = new Set(message.html.match(/<[^>]*>/g));
    expect([...tags].sort(), message.html).toEqual(['</p>', '<br>', '<p>']);
    expect(message.text, 'the plain-text part is not escaped').toContain(attack);
  });

  it('writes an iCalendar request with a stable UID, UTC start, duration, organizer and attendee', () => {
    const lines = calendarOf(composeInvite(input()));
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines.at(-1)).toBe('END:VCALENDAR');
    expect(lines).toContain('METHOD:REQUEST');
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines).toContain(`UID:${SESSION_ID}@sessions.code-runner`);
    expect(lines).toContain('DTSTART:20261201T140000Z');
    expect(lines).toContain('DURATION:PT45M');
    expect(lines).toContain('SEQUENCE:0');
    expect(lines).toContainEqual(expect.stringMatching(/^SUMMARY:Interview: Backend Engineer – Technical screen$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ORGANIZER;CN="Interviews":MAILTO:no-reply@localhost$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ATTENDEE;.*CN="Ada Lovelace".*:mailto:ada@example\.com$/));
  });

  it('keeps the UID and raises the SEQUENCE on updates', () => {
    const uidOf = (lines: string[]) => lines.find((l) => l.startsWith('UID:'));
    const first = calendarOf(composeInvite(input()));
    const update = calendarOf(composeInvite(input({ kind: 'update', scheduledAt: '2026-12-02T09:00:00Z' })));
    const third = calendarOf(composeInvite(input({ kind: 'update', sequence: 2 })));
    expect(uidOf(update)).toBe(uidOf(first));
    expect(uidOf(third)).toBe(uidOf(first));
    expect(update).toContain('SEQUENCE:1');
    expect(update).toContain('DTSTART:20261202T090000Z');
    expect(third).toContain('SEQUENCE:2');
  });

  it('keeps calendar parameters well formed for awkward names and a bare sender address', () => {
    const lines = calendarOf(
      composeInvite(input({ participant: { name: 'Jo "JJ" Doe;\nx', email: 'jo@example.com' }, from: 'no-reply@example.org' })),
    );
    const attendee = lines.find((l) => l.startsWith('ATTENDEE;'));
    expect(attendee).toContain(`CN="Jo 'JJ' Doe; x"`);
    expect(lines).toContain('ORGANIZER;CN="no-reply@example.org":MAILTO:no-reply@example.org');
  });

  it('says the time will be arranged and attaches no calendar when there is no time', () => {
    const message = composeInvite(input({ scheduledAt: null }));
    expect(message.calendar).toBeUndefined();
    expect(message.text).toContain('The time will be arranged with you.');
    expect(message.html).toContain('The time will be arranged with you.');
    expect(message.text).not.toContain('UTC');
    expect(message.text).toContain('45 minutes');
  });
});
