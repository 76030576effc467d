import { collectResults } from '../core/execute/collect-results.js';
import type { Language } from '../core/languages.js';
import type { ExecuteRequest, RequestLimits } from '../core/request-schema.js';
import { executeRequestSchema } from '../core/request-schema.js';
import {
  requireLanguage,
  validRequest,
  type Execution,
  type ExecutionRunner,
  type LanguageInfo,
  type RunOptions,
  type RunnerStats,
} from '../core/runner.js';
import { ShuttingDownError } from '../web/errors.js';
import { exactJson } from '../web/json.js';
import { INTERNAL_PATHS, languagesAnswer, TIER_HEADERS } from './protocol.js';
import { executionFrom, answerError, refusedForShutdown, parsedAnswer } from './runner-answer.js';
import { HopError, RunnerClient, type RunnerAnswer, type RunnerCall } from './runner-client.js';

export interface RemoteRunnerSettings {
  /** RUNNER_URL: a load balancer or a Kubernetes Service in front of the runner nodes. */
  url: string;
  token: string;
  request: RequestLimits;
  /** EXECUTION_TIMEOUT_MS: with a second of slack, the longest an execution may take from arrival to answer, queue wait included. */
  timeoutMs: number;
}

/** The answer's slack past the execution time, as on a single node ("about one second", docs/api.md). */
const BACKSTOP_SLACK_MS = 1_000;
/** What the runner node is told to leave of the budget for the answer's way back: its finished cases arrive before the api node's backstop. */
const HOP_MARGIN_MS = 500;
const READINESS_TIMEOUT_MS = 2_000;
const IDLE_POOL = { ready: 0, starting: 0, inUse: 0, waiting: 0, stranded: 0 };

/**
 * An api node's runner: sends every execution to RUNNER_URL and gives back what the runner node
 * answered, as the single node's Runner would have (same results, same typed errors), within the
 * same time promise, by its own clock (docs/runner-tier.md).
 */
export class RemoteRunner implements ExecutionRunner {
  readonly requestSchema: ReturnType<typeof executeRequestSchema>;
  /** As the runner nodes last reported it (languages()); docker/unknown until then. */
  sandbox: { driver: 'docker' | 'oci'; ociRuntime: string } = { driver: 'docker', ociRuntime: 'unknown' };
  private readonly client: RunnerClient;
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing = false;

  constructor(private readonly settings: RemoteRunnerSettings) {
    this.requestSchema = executeRequestSchema(settings.request);
    this.client = new RunnerClient(new URL(settings.url), settings.token);
  }

  execute(body: unknown, options: RunOptions = {}): Promise<Execution> {
    return this.run(validRequest(this.requestSchema, body), options);
  }

  run(request: ExecuteRequest, options: RunOptions = {}): Promise<Execution> {
    const running = this.send(request, options);
    this.inFlight.add(running);
    void running.finally(() => this.inFlight.delete(running)).catch(() => undefined);
    return running;
  }

  stats(): RunnerStats {
    // The queue and the pools are the runner nodes'; their own /metrics report them.
    return { queued: 0, running: this.inFlight.size, pools: { python: IDLE_POOL, node: IDLE_POOL }, ociRuntime: this.sandbox.ociRuntime };
  }

  /** Ready when a runner node behind RUNNER_URL answers its /readyz with 200. */
  async readiness(): Promise<{ ready: boolean; checks: Record<string, string> }> {
    const checks: Record<string, string> = {};
    try {
      const answer = await this.client.send({ method: 'GET', path: '/readyz', signal: AbortSignal.timeout(READINESS_TIMEOUT_MS) });
      checks.runner = answer.status === 200 ? 'ok' : `not ready (${answer.status})`;
    } catch (error) {
      checks.runner = error instanceof HopError ? error.reason : `no answer within ${READINESS_TIMEOUT_MS} ms`;
    }
    if (this.closing) checks.api = 'shutting down';
    // The runner tier's state is reported, not required: an api node whose runners are down still
    // serves every other route (executions answer 502), so an orchestrator must not take it out.
    return { ready: !this.closing, checks };
  }

  async languages(): Promise<LanguageInfo[]> {
    const answer = await this.call({ method: 'GET', path: INTERNAL_PATHS.languages });
    if (answer.status !== 200) throw answerError(answer);
    const { data, sandbox } = parsedAnswer(languagesAnswer, answer.body, JSON.parse);
    this.sandbox = sandbox;
    return data;
  }

  /** Takes no new executions, waits for those in flight (each bounded by its backstop), then closes the connections. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([...this.inFlight]);
    this.client.close();
  }

  private async send(request: ExecuteRequest, { signal, caller = 'anonymous', deadline = Infinity }: RunOptions): Promise<Execution> {
    signal?.throwIfAborted();
    if (this.closing) throw new ShuttingDownError('the runner is shutting down');
    const language = requireLanguage(request.language);
    const { timeoutMs } = this.settings;
    const backstopAt = Math.min(Date.now() + timeoutMs + BACKSTOP_SLACK_MS, deadline);
    const backstop = new AbortController();
    const timer = setTimeout(() => backstop.abort(), backstopAt - Date.now());
    const sentAt = Date.now();
    try {
      const answer = await this.call({
        method: 'POST',
        path: INTERNAL_PATHS.execute,
        // the validated request as exact JSON: every number keeps its text (3.0, integers beyond 2^53)
        body: exactJson(request),
        headers: { [TIER_HEADERS.caller]: caller, [TIER_HEADERS.budget]: String(Math.max(1, backstopAt - Date.now() - HOP_MARGIN_MS)) },
        signal: signal ? AbortSignal.any([signal, backstop.signal]) : backstop.signal,
      });
      return await executionFrom(answer, sentAt);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (backstop.signal.aborted) return this.timedOut(request, language);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * One call, sent a second time (through RUNNER_URL, so possibly to another runner node) only when
   * the first provably started no job: the connection failed before the request was completely
   * written, or the runner node refused it because it is shutting down.
   */
  private async call(call: RunnerCall): Promise<RunnerAnswer> {
    try {
      const answer = await this.client.send(call);
      if (!refusedForShutdown(answer)) return answer;
    } catch (error) {
      if (!(error instanceof HopError && error.unsent)) throw error;
    }
    call.signal?.throwIfAborted();
    return this.client.send(call);
  }

  /** The backstop's answer when no runner node answered in time: every case "timed out", as a single node reports unfinished cases. */
  private async timedOut(request: ExecuteRequest, language: Language): Promise<Execution> {
    return {
      status: 'timed-out',
      language,
      results: await collectResults(request.testCases, new Map(), () => 'timed out'),
      timings: { queueMs: 0, acquireMs: 0, runMs: 0 },
    };
  }
}
