export interface Backoff {
  baseMs: number;
  maxMs: number;
}

/**
 * The wait before the attempt after `attempt` (1-based): base × 2^(attempt−1), capped, plus up to
 * 10 % so that messages failing together (a receiver's outage) do not all come back at once.
 */
export function retryDelay(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const delay = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (attempt - 1));
  return Math.round(delay * (1 + 0.1 * random()));
}
