import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { REVOCATION_CHANNEL } from './revoke.js';

/** How the listener's connection shows in pg_stat_activity. */
export const LISTENER_NAME = 'code-runner revocation listener';

export interface ListenerOptions {
  url: string;
  onRevoked(keyId: string): void;
  /**
   * After every connection, the first included: notices sent while no connection listened are lost,
   * so the node checks the keys it is serving instead.
   */
  onListening(): Promise<void>;
  log: FastifyBaseLogger;
  /** First wait before reconnecting; it doubles on each failure up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How often the idle connection is checked: a connection cut without a FIN is otherwise noticed only by TCP, hours later. */
  heartbeatMs?: number;
}

export interface RevocationListener {
  /** Whether a connection is listening now. */
  readonly listening: boolean;
  close(): Promise<void>;
}

/**
 * Hears revocations from every node on one PostgreSQL (LISTEN on a connection of its own, outside
 * the pool, since a pooled connection changes hands). When the connection drops, it logs it and
 * reconnects with a growing delay; the first connection must succeed, as the database was just
 * opened.
 */
export async function listenForRevocations(options: ListenerOptions): Promise<RevocationListener> {
  const { log, backoffMs = 100, maxBackoffMs = 5_000, heartbeatMs = 10_000 } = options;
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let delay = backoffMs;
  let downSince: number | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: options.url,
      keepAlive: true,
      query_timeout: heartbeatMs,
      application_name: LISTENER_NAME,
    });
    next.on('notification', (message) => {
      if (message.channel === REVOCATION_CHANNEL && message.payload) options.onRevoked(message.payload);
    });
    // Either event may come alone, or both, for one loss: dropped() acts once per client.
    next.on('error', (error) => dropped(next, error));
    next.on('end', () => dropped(next, new Error('connection ended')));
    try {
      await next.connect();
      await next.query(`LISTEN ${REVOCATION_CHANNEL}`);
    } catch (error) {
      next.removeAllListeners('end');
      await next.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      next.removeAllListeners('end');
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    heartbeat = setInterval(() => void next.query('SELECT 1').catch((error: Error) => dropped(next, error)), heartbeatMs);
    heartbeat.unref();
    // A failed check is handled like a lost connection: the next one checks again.
    await options.onListening().catch((error: Error) => dropped(next, error));
  };

  const dropped = (which: pg.Client, error: Error) => {
    if (closed || which !== client) return;
    client = undefined;
    clearInterval(heartbeat);
    which.removeAllListeners('end');
    void which.end().catch(() => undefined);
    downSince = Date.now();
    log.warn(
      { err: error },
      'revocation listener lost its PostgreSQL connection; revocations on other nodes are not heard until it is back',
    );
    schedule();
  };

  const schedule = () => {
    retry = setTimeout(() => {
      connect().then(
        () => {
          log.info({ downMs: Date.now() - (downSince ?? Date.now()) }, 'revocation listener reconnected');
          delay = backoffMs;
        },
        (error: Error) => {
          if (closed) return;
          log.warn({ err: error, retryMs: delay }, 'revocation listener could not reconnect');
          schedule();
        },
      );
    }, delay);
    retry.unref();
    delay = Math.min(delay * 2, maxBackoffMs);
  };

  await connect();
  return {
    get listening() {
      return client !== undefined;
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const last = client;
      client = undefined;
      last?.removeAllListeners('end');
      await last?.end().catch(() => undefined);
    },
  };
}
