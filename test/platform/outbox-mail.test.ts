import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, outboxAttempts, outboxMessages, type Db, type MailMessage } from '../../src/platform/index.js';
import { SmtpReceiver } from '../support/smtp-receiver.js';
import { buildTestApp, removeDir, type TestApp } from './support/app.js';
import { pgliteDriver, postgresDriver } from './support/drivers.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

const SETTINGS = {
  OUTBOX_POLL_MS: '20',
  OUTBOX_BACKOFF_BASE_MS: '50',
  OUTBOX_BACKOFF_MAX_MS: '400',
  OUTBOX_MAX_ATTEMPTS: '20',
  MAIL_FROM: 'Interviews <interviews@example.test>',
};

const CALENDAR = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//outbox test//EN',
  'METHOD:REQUEST',
  'BEGIN:VEVENT',
  'UID:session-42@example.test',
  'DTSTAMP:20300101T090000Z',
  'DTSTART:20300102T090000Z',
  'DURATION:PT45M',
  'SUMMARY:Interview: Backend engineer, technical round',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

function invite(subject: string, withCalendar = true): MailMessage {
  return {
    to: 'ada@example.com',
    subject,
    text: `Hello Ada,\n\n${subject} is on 2 January 2030 at 10:00 (Europe/Paris).\n`,
    html: `<p>Hello Ada,</p><p><strong>${subject}</strong> is on 2 January 2030 at 10:00 (Europe/Paris).</p>`,
    ...(withCalendar ? { calendar: { filename: 'interview.ics', method: 'REQUEST' as const, content: CALENDAR } } : {}),
  };
}

const enqueueMail = async (db: Db, mail: MailMessage, workspaceId: string | null = null) =>
  (await enqueue(db, { workspaceId, kind: 'email', topic: 'invite', payload: mail }))[0];

async function stateOf(db: Db, id: string) {
  const [message] = await db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
  const attempts = await db.select().from(outboxAttempts).where(eq(outboxAttempts.message_id, id)).orderBy(asc(outboxAttempts.attempt));
  return { message, attempts };
}

/** Waits until the message's state satisfies `done`; a timeout prints that state. */
async function until(db: Db, id: string, done: (state: Awaited<ReturnType<typeof stateOf>>) => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await stateOf(db, id);
    if (done(state)) return state;
    if (Date.now() > deadline) throw new Error(`outbox message ${id} did not reach the expected state: ${JSON.stringify(state)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each([pgliteDriver(), postgresDriver()])('outbox emails on $name', (driver) => {
  let receiver: SmtpReceiver;
  let t: TestApp;
  let db: Db;

  beforeAll(async () => {
    receiver = await SmtpReceiver.start();
    t = await buildTestApp({ ...(await driver.env()), ...SETTINGS, SMTP_URL: receiver.url });
    db = t.platform.database.db;
    t.platform.startOutbox({});
  });
  afterAll(async () => {
    await t?.close();
    if (t) removeDir(t.dataDir);
    await receiver?.stop();
    await driver.stop();
  });

  const received = (subject: string) => receiver.messages.filter((m) => m.parsed.subject === subject);

  it('sends an email with its text and HTML parts and the .ics as a calendar part and an attachment', async () => {
    const mail = invite('Interview for Backend engineer');
    const id = await enqueueMail(db, mail);
    await receiver.waitFor(() => received(mail.subject).length === 1);
    const [{ envelope, parsed }] = received(mail.subject);
    expect(envelope).toEqual({ from: 'interviews@example.test', to: ['ada@example.com'] });
    expect(parsed.from?.value).toEqual([{ name: 'Interviews', address: 'interviews@example.test' }]);
    expect(parsed.text?.trim()).toBe(mail.text.trim());
    expect(parsed.html).toContain('<strong>Interview for Backend engineer</strong>');
    expect(parsed.messageId).toBe(`<${id}@example.test>`);
    const calendars = parsed.attachments.filter((a) => /calendar|ics/.test(a.contentType));
    expect(
      calendars.map((a) => a.contentType),
      JSON.stringify(parsed.attachments.map((a) => [a.contentType, a.filename])),
    ).toEqual(expect.arrayContaining(['text/calendar', 'application/ics']));
    for (const calendar of calendars) expect(calendar.content.toString()).toContain('UID:session-42@example.test');
    // The text/calendar alternative makes mail clients offer to accept the invitation; the attachment is the file.
    expect(calendars.find((a) => a.contentType === 'text/calendar')?.headers.get('content-type')).toMatchObject({
      params: { method: 'REQUEST' },
    });
    expect(calendars.find((a) => a.contentType === 'application/ics')).toMatchObject({
      filename: 'interview.ics',
      contentDisposition: 'attachment',
    });
    const { message, attempts } = await until(db, id, (s) => s.message.status === 'delivered');
    expect(message).toMatchObject({ attempts: 1, last_status_code: 250 });
    expect(attempts.map((a) => [a.outcome, a.status_code])).toEqual([['delivered', 250]]);
  });

  it('retries an email the server refuses for now (4xx) and gives up on one it refuses for good (5xx)', async () => {
    receiver.refuseNext({ code: 451, text: 'Try again later' });
    const later = invite('Refused once', false);
    const laterId = await enqueueMail(db, later);
    const retried = await until(db, laterId, (s) => s.message.status === 'delivered');
    expect(retried.attempts.map((a) => [a.outcome, a.status_code])).toEqual([
      ['retry', 451],
      ['delivered', 250],
    ]);
    expect(retried.attempts[0].error).toMatch(/Try again later/);
    expect(received(later.subject)).toHaveLength(1);

    receiver.refuseNext({ code: 550, text: 'No such mailbox' });
    const never = invite('Refused for good', false);
    const neverId = await enqueueMail(db, never);
    const failed = await until(db, neverId, (s) => s.message.status === 'failed');
    expect(failed.message).toMatchObject({ attempts: 1, last_status_code: 550 });
    expect(failed.message.last_error).toMatch(/No such mailbox/);
    await pause(300);
    expect((await stateOf(db, neverId)).attempts).toHaveLength(1);
    expect(received(never.subject)).toHaveLength(0);
  });

  it('enqueues at once while the SMTP server is down, and delivers once it is back', async () => {
    await receiver.stop();
    const mail = invite('Sent after the outage');
    const started = Date.now();
    // As a route does: the message is written in the transaction of the data it is about.
    const id = await db.transaction(async (tx) => enqueueMail(tx, mail));
    expect(Date.now() - started).toBeLessThan(1000);
    const during = await until(db, id, (s) => s.attempts.length >= 2);
    expect(during.message.status).toBe('pending');
    expect(during.attempts.every((a) => a.outcome === 'retry' && a.status_code === null)).toBe(true);
    expect(during.attempts[0].error).toMatch(/ECONNREFUSED|connect/i);
    await receiver.start();
    await receiver.waitFor(() => received(mail.subject).length === 1);
    const after = await until(db, id, (s) => s.message.status === 'delivered');
    expect(after.attempts.at(-1)).toMatchObject({ outcome: 'delivered', status_code: 250 });
    await pause(300);
    expect(received(mail.subject)).toHaveLength(1);
  });
});

describe.each([pgliteDriver(), postgresDriver()])('outbox emails without SMTP_URL on $name', (driver) => {
  let t: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    env = await driver.env();
    t = await buildTestApp({ ...env, ...SETTINGS, ADMIN_ENDPOINT: 'true' });
    t.platform.startOutbox({});
  });
  afterAll(async () => {
    await t?.close();
    if (t) removeDir(t.dataDir);
    await driver.stop();
  });

  it('keeps emails pending, and outbox list and outbox show print them', async () => {
    const db = t.platform.database.db;
    const created = await t.platform.admin({ command: 'workspace.create', slug: 'acme', plan: 'pro' });
    const workspaceId = /id ([0-9a-f-]{36})/.exec(created)![1];
    const mail = invite('Interview for Data analyst');
    const id = await enqueueMail(db, mail, workspaceId);
    const [otherId] = await enqueue(db, { workspaceId: null, kind: 'webhook', topic: 'session.created', payload: { ok: true } });
    await pause(300);
    expect((await stateOf(db, id)).message).toMatchObject({ status: 'pending', attempts: 0, claimed_by: null });

    const list = await t.platform.admin({ command: 'outbox.list' });
    const line = list.split('\n').find((l) => l.startsWith(id));
    expect(line, list).toBeDefined();
    expect(line!.split('\t').slice(1, 4)).toEqual(['email', 'invite', 'pending']);
    expect(line).toContain('0/20 attempts');
    expect(line).toContain('to ada@example.com: Interview for Data analyst');
    expect(list).toContain(otherId);
    expect(await t.platform.admin({ command: 'outbox.list', kind: 'webhook' })).not.toContain(id);
    expect(await t.platform.admin({ command: 'outbox.list', workspace: 'acme' })).not.toContain(otherId);
    expect(await t.platform.admin({ command: 'outbox.list', status: 'delivered' })).toBe('no outbox messages');
    await expect(t.platform.admin({ command: 'outbox.list', workspace: 'nope' })).rejects.toThrow('no workspace nope');

    const shown = await t.platform.admin({ command: 'outbox.show', id });
    expect(shown).toContain('to         ada@example.com');
    expect(shown).toContain('subject    Interview for Data analyst');
    expect(shown).toContain('calendar   interview.ics (REQUEST)');
    expect(shown).toContain(mail.text);
    await expect(t.platform.admin({ command: 'outbox.show', id: '00000000-0000-4000-8000-000000000000' })).rejects.toThrow(
      'no outbox message 00000000-0000-4000-8000-000000000000',
    );
    await expect(t.platform.admin({ command: 'outbox.show', id: 'abc' })).rejects.toThrow('an outbox message id is a UUID');
  });

  it('prints them from the CLI', async () => {
    const cli = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
        cwd: root,
        env: { ...process.env, ...env, DATA_DIR: t.dataDir },
      });
    const list = await cli('outbox', 'list', '--kind', 'email', '--status', 'pending', '--workspace', 'acme');
    const id = list.stdout.split('\t')[0];
    expect(list.stdout).toContain('to ada@example.com: Interview for Data analyst');
    const shown = await cli('outbox', 'show', id);
    expect(shown.stdout).toContain('subject    Interview for Data analyst');
    expect(shown.stdout).toContain('Hello Ada,');
    await expect(cli('outbox', 'list', '--kind', 'fax')).rejects.toMatchObject({ stderr: expect.stringContaining('kind') });
  }, 60_000);
});
