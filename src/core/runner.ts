import type Docker from 'dockerode';
import { collectResults } from './execute/collect-results.js';
import { executeJob } from './execute/execute-job.js';
import { FairQueue } from './fair-queue.js';
import { jsonWorker } from './execute/json-worker.js';
import { prepareExecution } from './execute/prepare.js';
import { issuesFromZod, ShuttingDownError, UnsupportedLanguageError, ValidationError } from '../web/errors.js';
import { interpreterOf, LANGUAGE_ALIASES, LANGUAGES, parseLanguage, type Interpreter, type Language } from './languages.js';
import { executeRequestSchema, type ExecuteRequest, type RequestLimits } from './request-schema.js';
import type { CaseResult } from './result-schema.js';
import { ContainerBudget } from './sandbox/budget.js';
import type { SandboxLimits } from './sandbox/container-spec.js';
import { DockerEngine, pickOciRuntime, removeLabelled, type OciRuntimeChoice } from './sandbox/engine.js';
import { OciEngine } from './sandbox/oci/oci-engine.js';
import { SandboxPool, type PoolStats } from './sandbox/pool.js';
import type { Sandbox, SandboxEngine } from './sandbox/sandbox.js';

export interface RunnerSettings {
  images: Record<Interpreter, string>;
  ociRuntime: OciRuntimeChoice;
  /** docker (the default): containers through the Docker engine; oci: the OCI runtime binary started directly. */
  driver?: 'docker' | 'oci';
  /** The oci driver's files: its state and bundles under `<dataDir>/oci`, unpacked images in `rootfsDir`. */
  oci?: { dataDir: string; rootfsDir?: string };
  instance: string;
  limits: SandboxLimits;
  request: RequestLimits;
  timeoutMs: number;
  stdoutCapBytes: number;
  /** Bytes an execution's results may take together (values, output, errors); 4 MiB when unset. */
  resultBudgetBytes?: number;
  concurrency: number;
  queueLimit: number;
  /** Longest wait in the queue before an execution starts (within timeoutMs); past it the caller gets 503 with Retry-After. */
  queueWaitMs: number;
  pool: {
    enabled: boolean;
    minIdle: Record<Interpreter, number>;
    maxPerInterpreter: number;
    refillConcurrency: number;
    maxAgeMs: number;
    idleShrinkMs: number;
  };
  maxContainers: number;
  /** How often leftover containers are swept, and the longest wait between two retries of a refused removal. */
  sweepIntervalMs?: number;
}

type ExecutionStatus = 'completed' | 'timed-out';
export interface Execution {
  status: ExecutionStatus;
  language: Language;
  results: CaseResult[];
  /** hopMs: on an api node, what the way to the runner node and back added (network, both HTTP stacks, the answer's parsing). */
  timings: { queueMs: number; acquireMs: number; runMs: number; hopMs?: number };
}

export interface RunOptions {
  /** Aborted when the caller may no longer run it (its key was revoked). */
  signal?: AbortSignal;
  /** Whose line the execution waits in: an API key, or a client IP for anonymous calls. */
  caller?: string;
  /**
   * Epoch ms by which the execution ends even if its own time limit runs later: an api node's
   * remaining budget (docs/runner-tier.md), so that the finished cases come back before its own clock runs out.
   */
  deadline?: number;
}

export interface RunnerStats {
  queued: number;
  running: number;
  pools: Record<Interpreter, PoolStats>;
  ociRuntime: string;
}
export interface LanguageInfo {
  language: Language;
  aliases: string[];
  runtime: string;
  version: string | null;
}

/** The language a request names, or the 422 that says which ones there are. */
export function requireLanguage(name: string): Language {
  const language = parseLanguage(name);
  if (!language) throw new UnsupportedLanguageError(`language "${name}" is not supported; use one of ${LANGUAGES.join(', ')}`);
  return language;
}

/** `body` checked against a runner's request schema (400 naming each field), numbers as parsed. */
export function validRequest(schema: ReturnType<typeof executeRequestSchema>, body: unknown): ExecuteRequest {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw ValidationError.fromIssues(issuesFromZod(parsed.error));
  return parsed.data;
}

/**
 * What the routes run executions with: this process's `Runner`, or an api node's `RemoteRunner`
 * (src/tier/), which sends them to a runner node.
 */
export interface ExecutionRunner {
  /** The request schema with the runner's limits, for validation and for the API documents. */
  readonly requestSchema: ReturnType<typeof executeRequestSchema>;
  /** What runs the sandboxes, as of the last `languages()` answer. */
  readonly sandbox: { driver: 'docker' | 'oci'; ociRuntime: string };
  execute(body: unknown, options?: RunOptions): Promise<Execution>;
  run(request: ExecuteRequest, options?: RunOptions): Promise<Execution>;
  stats(): RunnerStats;
  readiness(): Promise<{ ready: boolean; checks: Record<string, string> }>;
  languages(): Promise<LanguageInfo[]>;
  close(): Promise<void>;
}

/**
 * The runner core's one interface: validate a request, run it in single-use containers, and
 * return per-case results. It knows nothing of HTTP, accounts or JSON-RPC.
 */
export class Runner implements ExecutionRunner {
  private readonly queue: FairQueue;
  private readonly pools: Record<Interpreter, SandboxPool>;
  private readonly versions: Partial<Record<Interpreter, string>> = {};
  /** The version probe under way per interpreter, shared by every caller waiting for it. */
  private readonly probes: Partial<Record<Interpreter, Promise<string | null>>> = {};
  /** The request schema with this runner's limits, for validation and for the API documents. */
  readonly requestSchema: ReturnType<typeof executeRequestSchema>;
  private closing = false;

  /** A runner on any sandbox engine; the service's is made by `Runner.create`, on Docker. */
  constructor(
    private readonly engine: SandboxEngine,
    private readonly settings: RunnerSettings,
    onPoolError: (error: Error) => void = () => undefined,
  ) {
    this.queue = new FairQueue({
      concurrency: settings.concurrency,
      limit: settings.queueLimit,
      // the wait is part of the execution's budget: a job that could only start once it is spent is refused instead
      maxWaitMs: Math.min(settings.queueWaitMs, settings.timeoutMs),
      perCaller: Math.max(1, settings.concurrency - 1),
    });
    this.requestSchema = executeRequestSchema(settings.request);
    const budget = new ContainerBudget(settings.maxContainers);
    const makePool = (interpreter: Interpreter) =>
      new SandboxPool(
        () => this.startSandbox(interpreter),
        {
          minIdle: settings.pool.enabled ? settings.pool.minIdle[interpreter] : 0,
          maxSize: settings.pool.enabled ? settings.pool.maxPerInterpreter : 0,
          refillConcurrency: settings.pool.enabled ? settings.pool.refillConcurrency : settings.maxContainers,
          maxAgeMs: settings.pool.maxAgeMs,
          idleShrinkMs: settings.pool.idleShrinkMs,
          readyTimeoutMs: Math.min(settings.timeoutMs, 10_000),
          removeRetryMaxMs: settings.sweepIntervalMs,
        },
        budget,
        onPoolError,
      );
    this.pools = { python: makePool('python'), node: makePool('node') };
  }

  static async create(docker: Docker, settings: RunnerSettings, onPoolError: (error: Error) => void = () => undefined): Promise<Runner> {
    jsonWorker.warm();
    if (settings.driver === 'oci') {
      await removeLabelled(docker, settings.instance);
      const engine = await OciEngine.start(
        docker,
        {
          ...settings,
          dataDir: settings.oci?.dataDir ?? './data',
          rootfsDir: settings.oci?.rootfsDir,
        },
        onPoolError,
      );
      return new Runner(engine, settings, onPoolError);
    }
    const ociRuntime = await pickOciRuntime(docker, settings.ociRuntime, settings.images.python);
    return new Runner(await DockerEngine.start(docker, settings, ociRuntime, onPoolError), settings, onPoolError);
  }

  get ociRuntime(): string {
    return this.engine.ociRuntime;
  }

  /** What runs the sandboxes: the driver and its OCI runtime, as the languages endpoint reports them. */
  get sandbox(): { driver: 'docker' | 'oci'; ociRuntime: string } {
    return { driver: this.settings.driver ?? 'docker', ociRuntime: this.engine.ociRuntime };
  }

  /** Validates `body` (numbers parsed losslessly) and runs it. User-code faults are results, never errors. */
  async execute(body: unknown, options: RunOptions = {}): Promise<Execution> {
    return this.run(validRequest(this.requestSchema, body), options);
  }

  /**
   * Runs a request already validated with `requestSchema`, queued in its caller's line (callers
   * are served in turn, none holding every slot). The time limit counts from the call, the wait in
   * the queue included: the contract's 15 s are the caller's, from its request to its answer.
   * Aborting `signal` (the caller's key was revoked) takes it out of the queue or kills its
   * sandbox, and rejects with the signal's reason.
   */
  async run(request: ExecuteRequest, { signal, caller = 'anonymous', deadline = Infinity }: RunOptions = {}): Promise<Execution> {
    const arrivedAt = Date.now();
    signal?.throwIfAborted();
    if (this.closing) throw new ShuttingDownError('the runner is shutting down');
    const language = requireLanguage(request.language);

    const prepared = prepareExecution(request, language, this.settings.stdoutCapBytes);
    if (prepared.kind === 'fail-all') {
      return {
        status: 'completed',
        language,
        results: await collectResults(request.testCases, new Map(), () => prepared.error),
        timings: { queueMs: 0, acquireMs: 0, runMs: 0 },
      };
    }
    const enqueuedAt = Date.now();
    const endBy = Math.min(arrivedAt + this.settings.timeoutMs, deadline);
    const pool = this.pools[prepared.interpreter];
    return this.queue.add(
      caller,
      async (): Promise<Execution> => {
        const startedAt = Date.now();
        const job =
          prepared.job.cases.length === 0
            ? { outcomes: new Map(), reasons: new Map(), leadingStdout: '', timedOut: false, acquireMs: 0, runMs: 0 }
            : await executeJob(pool, prepared.job, {
                deadline: endBy,
                caseTimeoutMs: request.caseTimeoutMs,
                memoryMb: this.settings.limits.memoryMb,
                signal,
                resultBudgetBytes: this.settings.resultBudgetBytes,
              });
        const results = await collectResults(
          request.testCases,
          job.outcomes,
          (i) => prepared.caseErrors.get(i) ?? job.reasons.get(i) ?? 'no result',
          job.leadingStdout,
        );
        return {
          status: job.timedOut ? 'timed-out' : 'completed',
          language,
          results,
          timings: { queueMs: startedAt - enqueuedAt, acquireMs: job.acquireMs, runMs: job.runMs },
        };
      },
      signal,
    );
  }

  stats(): RunnerStats {
    return {
      queued: this.queue.size,
      running: this.queue.pending,
      pools: { python: this.pools.python.stats, node: this.pools.node.stats },
      ociRuntime: this.ociRuntime,
    };
  }

  /** The engine's checks (for Docker: reachable, both runner images present), and not shutting down. */
  async readiness(): Promise<{ ready: boolean; checks: Record<string, string> }> {
    const checks = await this.engine.checks();
    if (this.closing) checks.runner = 'shutting down';
    return { ready: Object.values(checks).every((v) => v === 'ok'), checks };
  }

  async languages(): Promise<LanguageInfo[]> {
    return Promise.all(
      LANGUAGES.map(async (language) => {
        const interpreter = interpreterOf(language);
        return { language, aliases: [...LANGUAGE_ALIASES[language]], runtime: interpreter, version: await this.version(interpreter) };
      }),
    );
  }

  /** Stops taking work, lets queued and running executions finish, then removes every container. */
  async close(): Promise<void> {
    this.closing = true;
    await this.queue.onIdle();
    await Promise.all([this.pools.python.close(), this.pools.node.close()]);
    await this.engine.removeAll().catch(() => undefined);
  }

  /**
   * The runtime's version, as a sandbox reports it when its harness is ready. Until one has, one
   * probe at a time per interpreter, and the probe is a container of the interpreter's pool: inside
   * the container budget, however many callers ask at once.
   */
  private version(interpreter: Interpreter): Promise<string | null> {
    const known = this.versions[interpreter];
    if (known) return Promise.resolve(known);
    this.probes[interpreter] ??= this.probe(interpreter).finally(() => {
      delete this.probes[interpreter];
    });
    return this.probes[interpreter];
  }

  private async probe(interpreter: Interpreter): Promise<string | null> {
    const pool = this.pools[interpreter];
    try {
      const sandbox = await pool.acquire();
      try {
        return (this.versions[interpreter] ??= await sandbox.ready);
      } finally {
        pool.retire(sandbox);
      }
    } catch {
      return null;
    }
  }

  private async startSandbox(interpreter: Interpreter): Promise<Sandbox> {
    const sandbox = await this.engine.startSandbox(interpreter);
    void sandbox.ready.then(
      (version) => {
        this.versions[interpreter] ??= version;
      },
      () => undefined,
    );
    return sandbox;
  }
}
