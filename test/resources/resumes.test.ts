import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, asc, eq } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { outboxAttempts, outboxMessages, type ClaimedMessage, type Db, type OutboxHandler } from '../../src/platform/index.js';
import { resourcesConfigSchema } from '../../src/resources/config.js';
import { MAX_RESUME_CHARS, queueResumeFetch, resumeHandler } from '../../src/resources/participants/resume.js';
import { pgliteDriver, postgresDriver } from '../platform/support/drivers.js';
import { createKey, createWorkspace, startResourcesApp, type ResourcesApp } from './support/app.js';
import { dataOf, expectError, expectStatus, type Api } from './support/client.js';
import { createParticipant, unique } from './support/resources.js';

const TEXT_RESUME = 'Ada Lovelace\nMathematician — wrote the first published algorithm for the Analytical Engine.\n';

async function pdfOf(pages: string[]): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const line of pages) document.addPage([400, 200]).drawText(line, { x: 20, y: 150, size: 12, font });
  return Buffer.from(await document.save());
}

interface Served {
  status?: number;
  type?: string;
  body: Buffer | string;
  headers?: Record<string, string>;
}

/** The documents' web server on loopback; `/held` answers only when the test releases it. */
async function startDocumentServer(documents: Record<string, Served>) {
  const requested: string[] = [];
  let release: (() => void) | undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer((request, response) => {
    const path = request.url ?? '';
    requested.push(path);
    const send = () => {
      const served = documents[path] ?? { status: 404, type: 'text/plain', body: 'not found' };
      response.writeHead(served.status ?? 200, { ...(served.type ? { 'content-type': served.type } : {}), ...served.headers });
      response.end(served.body);
    };
    if (path === '/held') void held.then(send);
    else if (path === '/flaky' && requested.filter((earlier) => earlier === path).length === 1)
      response.writeHead(503, { 'content-type': 'text/plain' }).end('try again');
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    requested,
    release: () => release?.(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const config = resourcesConfigSchema.parse({
  OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
  RESUME_TIMEOUT_MS: '2000',
  RESUME_MAX_BYTES: '1048576',
});

interface Resume {
  url: string | null;
  status: string | null;
  error: string | null;
  text: string | null;
  fetched_at: string | null;
}

describe.each([pgliteDriver(), postgresDriver()])('résumés on $name', (driver) => {
  let server: ResourcesApp;
  let documents: Awaited<ReturnType<typeof startDocumentServer>>;
  let api: Api;
  let db: Db;
  let workspaceId: string;

  beforeAll(async () => {
    const longText = `${'x'.repeat(MAX_RESUME_CHARS - 1)}🎉 and more`;
    documents = await startDocumentServer({
      '/cv.txt': { type: 'text/plain; charset=utf-8', body: TEXT_RESUME },
      '/cv.md': { type: 'text/markdown', body: '# Grace Hopper\n\n- COBOL\u0000\n' },
      '/cv.pdf': { type: 'application/pdf', body: await pdfOf(['Katherine Johnson', 'Orbital mechanics at NASA']) },
      '/cv-octets': { type: 'application/octet-stream', body: await pdfOf(['Dorothy Vaughan, FORTRAN']) },
      '/cv-v2.txt': { type: 'text/plain', body: 'Ada Lovelace, second edition' },
      '/cv.docx': { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', body: 'PK\u0003\u0004' },
      '/blank.pdf': { type: 'application/pdf', body: await pdfOf(['']) },
      '/broken.pdf': { type: 'application/pdf', body: '%PDF-1.7 this is not a PDF at all' },
      '/long.txt': { type: 'text/plain', body: longText },
      '/moved': { status: 302, headers: { location: '/cv.txt' }, body: '' },
      '/down': { status: 503, type: 'text/plain', body: 'maintenance' },
      '/held': { type: 'text/plain', body: 'Ada Lovelace, the stale edition' },
      '/flaky': { type: 'text/plain', body: 'Mary Jackson, aerospace engineer' },
    });
    // The worker starts in the last test only; these make its polling and backoff quick there.
    server = await startResourcesApp({ ...(await driver.env()), OUTBOX_POLL_MS: '50', OUTBOX_BACKOFF_BASE_MS: '50' }, undefined, {
      outbox: false,
    });
    workspaceId = await createWorkspace(server.platform, 'acme');
    api = server.api(await createKey(server.platform, 'acme', 'all'));
    db = server.platform.database.db;
  });
  afterAll(async () => {
    await server?.close();
    await documents?.close();
    await driver.stop();
  });

  /** A participant whose resume_url is `path` on the document server, its fetch queued as the participants' store does. */
  async function participantWith(path: string): Promise<string> {
    const url = documents.url(path);
    const { id } = await createParticipant(api, { resume_url: url });
    await queueResumeFetch(db, { workspaceId, participantId: id, url });
    return id;
  }

  /** Runs the handler on the participant's newest queued fetch of `path`, as the outbox worker would claim it. */
  async function deliver(participantId: string, path: string, attempt = 1, handler: OutboxHandler = resumeHandler(db, config)) {
    const rows = await db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.kind, 'resume'), eq(outboxMessages.target_id, participantId)))
      .orderBy(asc(outboxMessages.created_at));
    const row = rows.filter((candidate) => candidate.payload.url === documents.url(path)).at(-1);
    if (!row) throw new Error(`no résumé message for ${path} among ${JSON.stringify(rows.map((r) => r.payload))}`);
    expect([row.workspace_id, row.topic, row.max_attempts]).toEqual([workspaceId, 'resume', 3]);
    const message: ClaimedMessage = {
      id: row.id,
      workspaceId: row.workspace_id,
      kind: 'resume',
      topic: row.topic,
      targetId: row.target_id,
      payload: row.payload,
      attempt,
    };
    return handler(message, new AbortController().signal).then(
      (result) => ({ result, failure: undefined }),
      (failure: unknown) => ({ result: undefined, failure: failure as Error & { permanent?: boolean; statusCode?: number } }),
    );
  }

  const resumeOf = async (id: string) => dataOf<Resume>(await api.get(`/api/v1/participants/${id}/resume`), 200);

  it('marks a queued fetch pending, then stores the text of a plain-text résumé', async () => {
    const id = await participantWith('/cv.txt');
    expect(await resumeOf(id)).toEqual({ url: documents.url('/cv.txt'), status: 'pending', error: null, text: null, fetched_at: null });
    const { failure } = await deliver(id, '/cv.txt');
    expect(failure).toBeUndefined();
    const resume = await resumeOf(id);
    expect(resume).toMatchObject({ status: 'extracted', error: null, text: TEXT_RESUME.trim() });
    expect(Date.now() - Date.parse(resume.fetched_at ?? '')).toBeLessThan(60_000);
  });

  it('shows the status in the participant, and the text only under /resume', async () => {
    const id = await participantWith('/cv.md');
    await deliver(id, '/cv.md');
    const participant = dataOf<Record<string, unknown>>(await api.get(`/api/v1/participants/${id}`), 200);
    expect(participant).toMatchObject({ resume_status: 'extracted', resume_error: null });
    expect(participant, 'the participant answer leaves the text out').not.toHaveProperty('resume_text');
    expect((await resumeOf(id)).text, 'NUL characters are dropped').toBe('# Grace Hopper\n\n- COBOL');
  });

  it.each([
    ['/cv.pdf', 'Katherine Johnson\nOrbital mechanics at NASA'],
    ['/cv-octets', 'Dorothy Vaughan, FORTRAN'],
  ])('extracts the text of the PDF %s, every page', async (path, text) => {
    const id = await participantWith(path);
    const { failure } = await deliver(id, path);
    expect(failure).toBeUndefined();
    const resume = await resumeOf(id);
    expect(resume.status, String(resume.error)).toBe('extracted');
    expect(resume.text?.replace(/\s+/g, ' ')).toBe(text.replace(/\s+/g, ' '));
  });

  it(`stores at most ${MAX_RESUME_CHARS} characters, without cutting a character in half`, async () => {
    const id = await participantWith('/long.txt');
    await deliver(id, '/long.txt');
    const { text } = await resumeOf(id);
    expect(text?.length).toBe(MAX_RESUME_CHARS - 1);
    expect(text?.endsWith('x')).toBe(true);
  });

  it.each([
    ['/cv.docx', /^unsupported content type application\/vnd\.openxmlformats.*; readable: PDF, plain text$/, undefined],
    ['/nowhere.pdf', /^the server answered 404$/, 404],
    ['/moved', /^the server answered 302; redirects are not followed/, 302],
    ['/blank.pdf', /^the PDF document holds no text/, 200],
    ['/broken.pdf', /^the PDF could not be read/, 200],
  ])('ends %s failed at once, with the reason', async (path, reason, statusCode) => {
    const id = await participantWith(path);
    const { failure } = await deliver(id, path);
    expect(failure?.message).toMatch(reason);
    expect(failure?.permanent, 'no retry: it would fail the same way').toBe(true);
    if (statusCode) expect(failure?.statusCode).toBe(statusCode);
    const resume = await resumeOf(id);
    expect([resume.status, resume.text]).toEqual(['failed', null]);
    expect(resume.error).toMatch(reason);
    expect(dataOf<Record<string, unknown>>(await api.get(`/api/v1/participants/${id}`), 200).resume_error).toMatch(reason);
  });

  it('refuses a loopback address unless the operator allows it, and fails for good', async () => {
    const id = await participantWith('/cv.txt');
    const before = documents.requested.length;
    const guarded = resumeHandler(db, { ...config, OUTBOUND_ALLOWED_NETWORKS: '' });
    const { failure } = await deliver(id, '/cv.txt', 1, guarded);
    expect(failure?.permanent).toBe(true);
    expect(documents.requested.length, 'the document server was never asked').toBe(before);
    const resume = await resumeOf(id);
    expect(resume).toMatchObject({ status: 'failed', text: null });
    expect(resume.error).toBe('address 127.0.0.1 is loopback; allow it with OUTBOUND_ALLOWED_NETWORKS');
  });

  it('retries a 5xx, and stores the failure only after the last attempt', async () => {
    const id = await participantWith('/down');
    const first = await deliver(id, '/down', 1);
    expect([first.failure?.message, first.failure?.permanent, first.failure?.statusCode]).toEqual(['the server answered 503', false, 503]);
    expect((await resumeOf(id)).status).toBe('pending');
    const last = await deliver(id, '/down', 3);
    expect(last.failure?.permanent).toBe(true);
    expect(await resumeOf(id)).toMatchObject({ status: 'failed', error: 'the server answered 503' });
  });

  it('retries a timeout', async () => {
    const id = await participantWith('/held');
    const { failure } = await deliver(id, '/held', 1, resumeHandler(db, { ...config, RESUME_TIMEOUT_MS: 200 }));
    expect([failure?.message, failure?.permanent]).toEqual(['no complete answer within 200 ms', false]);
    expect((await resumeOf(id)).status).toBe('pending');
  });

  it('drops the result for an address the participant no longer has', async () => {
    const id = await participantWith('/cv.txt');
    dataOf(await api.patch(`/api/v1/participants/${id}`, { resume_url: documents.url('/cv-v2.txt') }), 200);
    await queueResumeFetch(db, { workspaceId, participantId: id, url: documents.url('/cv-v2.txt') });
    const before = documents.requested.length;
    expect((await deliver(id, '/cv.txt')).failure).toBeUndefined();
    expect(documents.requested.length, 'a stale address is not fetched').toBe(before);
    expect(await resumeOf(id)).toMatchObject({ status: 'pending', text: null });
    await deliver(id, '/cv-v2.txt');
    expect(await resumeOf(id)).toMatchObject({ status: 'extracted', text: 'Ada Lovelace, second edition' });
  });

  it('drops the result when the address changes while the document downloads', async () => {
    const id = await participantWith('/held');
    const delivery = deliver(id, '/held');
    await vi.waitFor(() => expect(documents.requested).toContain('/held'));
    dataOf(await api.patch(`/api/v1/participants/${id}`, { resume_url: documents.url('/cv-v2.txt') }), 200);
    documents.release();
    expect((await delivery).failure).toBeUndefined();
    expect(await resumeOf(id)).toMatchObject({ url: documents.url('/cv-v2.txt'), text: null });
    expect((await resumeOf(id)).status).not.toBe('extracted');
  });

  it('answers 404 for an unknown participant or one of another workspace, and 403 without participants:read', async () => {
    expectError(await api.get(`/api/v1/participants/${crypto.randomUUID()}/resume`), 404);
    const id = await participantWith('/cv.txt');
    const other = server.api(await createKey(server.platform, 'acme', 'sessions:read'));
    expectStatus(await other.get(`/api/v1/participants/${id}/resume`), 403);
    const otherWorkspace = `o${unique()}`;
    await createWorkspace(server.platform, otherWorkspace);
    const stranger = server.api(await createKey(server.platform, otherWorkspace, 'participants:read'));
    expectError(await stranger.get(`/api/v1/participants/${id}/resume`), 404);
    expectError(await api.get('/api/v1/participants/not-a-uuid/resume'), 400);
  });

  // Last: the worker also delivers what the tests above left queued.
  it('goes from a participant created with resume_url to its text through the outbox worker, retrying a 503', async () => {
    server.platform.startOutbox({ resume: resumeHandler(db, config) });
    const { id } = await createParticipant(api, { resume_url: documents.url('/flaky') });
    await vi.waitFor(async () => expect((await resumeOf(id)).status).toBe('extracted'), { timeout: 10_000, interval: 50 });
    expect((await resumeOf(id)).text).toBe('Mary Jackson, aerospace engineer');
    const attempts = await db
      .select({ outcome: outboxAttempts.outcome, status: outboxAttempts.status_code })
      .from(outboxAttempts)
      .innerJoin(outboxMessages, eq(outboxMessages.id, outboxAttempts.message_id))
      .where(and(eq(outboxMessages.target_id, id), eq(outboxMessages.kind, 'resume')))
      .orderBy(asc(outboxAttempts.attempt));
    expect(attempts).toEqual([
      { outcome: 'retry', status: 503 },
      { outcome: 'delivered', status: 200 },
    ]);
  });
});
