import { and, eq } from 'drizzle-orm';
import { DeliveryFailure, enqueue, OutboundRefused, outboundRequest, type Db, type OutboxHandler } from '../../platform/index.js';
import type { ResourcesConfig } from '../config.js';
import { DEFAULT_EXTRACTORS, extractDocument, UnreadableDocument, type Extractor } from './resume-extract.js';
import { participants } from './table.js';

/** Attempts at one fetch: a server that fails this often in a row (with the outbox's backoff between) is reported as failed. */
const RESUME_ATTEMPTS = 3;

/** The text stored is cut here: enough for any résumé, and a bound on what a 10 MB document can put in a row. */
export const MAX_RESUME_CHARS = 200_000;

/** In the caller's transaction: marks the participant's résumé pending and enqueues its fetch (outbox kind 'resume'). */
export async function queueResumeFetch(db: Db, input: { workspaceId: string; participantId: string; url: string }): Promise<void> {
  await db
    .update(participants)
    .set({ resume_status: 'pending', resume_error: null, resume_text: null, resume_fetched_at: null })
    .where(and(eq(participants.workspace_id, input.workspaceId), eq(participants.id, input.participantId)));
  await enqueue(db, {
    workspaceId: input.workspaceId,
    kind: 'resume',
    topic: 'resume',
    targetId: input.participantId,
    payload: { url: input.url },
    maxAttempts: RESUME_ATTEMPTS,
  });
}

/** A failure that another attempt could cure (a timeout, a dropped connection, a 5xx), or not. */
class FetchFailure extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
    readonly statusCode?: number,
  ) {
    super(message);
  }
}

async function fetchText(url: string, config: ResourcesConfig, extractors: readonly Extractor[], signal: AbortSignal): Promise<string> {
  let response;
  try {
    response = await outboundRequest(url, {
      method: 'GET',
      headers: { accept: 'application/pdf, text/plain, text/markdown;q=0.9' },
      timeoutMs: config.RESUME_TIMEOUT_MS,
      maxBytes: config.RESUME_MAX_BYTES,
      allowedNetworks: config.OUTBOUND_ALLOWED_NETWORKS,
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof OutboundRefused) throw new FetchFailure(error.message, error.reason === 'timeout');
    throw new FetchFailure(`the request failed: ${error instanceof Error ? error.message : String(error)}`, true);
  }
  const { status } = response;
  if (status >= 300 && status < 400)
    throw new FetchFailure(`the server answered ${status}; redirects are not followed, give the document's final address`, false, status);
  if (status < 200 || status >= 300)
    // 408 and 429 say "later"; other 4xx will answer the same again.
    throw new FetchFailure(`the server answered ${status}`, status >= 500 || status === 408 || status === 429, status);
  try {
    return await extractDocument(response.headers['content-type'] as string | undefined, response.body, extractors);
  } catch (error) {
    if (error instanceof UnreadableDocument) throw new FetchFailure(error.message, false, status);
    throw error;
  }
}

/** What PostgreSQL can store of a text: no NUL characters, at most MAX_RESUME_CHARS, no surrogate pair cut in half. */
function storable(text: string): string {
  const clean = text.replaceAll('\u0000', '');
  if (clean.length <= MAX_RESUME_CHARS) return clean;
  const cut = clean.slice(0, MAX_RESUME_CHARS);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * Delivers outbox messages of kind 'resume': fetches the document through the outbound guard,
 * extracts its text and stores it on the participant, or stores why it failed once no attempt is
 * left. A result for an address the participant no longer has is dropped: its own fetch is queued.
 */
export function resumeHandler(db: Db, config: ResourcesConfig, extractors: readonly Extractor[] = DEFAULT_EXTRACTORS): OutboxHandler {
  return async (message, signal) => {
    const { targetId: participantId, workspaceId } = message;
    if (!participantId || !workspaceId)
      throw new DeliveryFailure('a résumé message must name its workspace and participant', { permanent: true });
    const url = String(message.payload.url);
    // The update lands only while the row still points at this address, so a stale result cannot overwrite a newer one.
    const current = and(eq(participants.workspace_id, workspaceId), eq(participants.id, participantId), eq(participants.resume_url, url));
    const store = (fields: Partial<typeof participants.$inferInsert>) => db.update(participants).set(fields).where(current);
    if ((await db.select({ id: participants.id }).from(participants).where(current)).length === 0) return;
    try {
      const text = await fetchText(url, config, extractors, signal);
      await store({ resume_status: 'extracted', resume_error: null, resume_text: storable(text), resume_fetched_at: new Date() });
      return { statusCode: 200 };
    } catch (error) {
      if (!(error instanceof FetchFailure)) throw error;
      const last = !error.retry || message.attempt >= RESUME_ATTEMPTS;
      if (last) await store({ resume_status: 'failed', resume_error: error.message, resume_text: null, resume_fetched_at: new Date() });
      throw new DeliveryFailure(error.message, { statusCode: error.statusCode, permanent: last });
    }
  };
}
