import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Execution, ExecutionRunner } from '../core/runner.js';
import { BusyError, SandboxError } from '../web/errors.js';

type ExecutionOutcome = 'passed' | 'failed' | 'timeout' | 'rejected' | 'sandbox_error' | 'busy';

function languageOf(body: unknown): string {
  const language = (body as { language?: unknown } | null)?.language;
  return typeof language === 'string' ? language.toLowerCase().slice(0, 20) : 'unknown';
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 20];

/** Prometheus metrics of the runner: executions by outcome, queue, pool occupancy, latency split by phase. */
export class RunnerMetrics {
  readonly registry = new Registry();
  private readonly executions = new Counter({
    name: 'code_runner_executions_total',
    help: 'Executions by language and outcome',
    labelNames: ['language', 'outcome'],
    registers: [this.registry],
  });
  private readonly phase = new Histogram({
    name: 'code_runner_phase_seconds',
    help: 'Execution latency by phase: queue wait, container acquisition, run time; on an api node also the hop to the runner node',
    labelNames: ['phase'],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  constructor(runner: Pick<ExecutionRunner, 'stats'>) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'code_runner_queue_length',
      help: 'Executions waiting in the queue',
      registers: [this.registry],
      collect() {
        this.set(runner.stats().queued);
      },
    });
    new Gauge({
      name: 'code_runner_running',
      help: 'Executions running now',
      registers: [this.registry],
      collect() {
        this.set(runner.stats().running);
      },
    });
    new Gauge({
      name: 'code_runner_pool_containers',
      help: 'Sandbox containers by interpreter and state',
      labelNames: ['interpreter', 'state'],
      registers: [this.registry],
      collect() {
        for (const [interpreter, stats] of Object.entries(runner.stats().pools)) {
          this.set({ interpreter, state: 'ready' }, stats.ready);
          this.set({ interpreter, state: 'starting' }, stats.starting);
          this.set({ interpreter, state: 'in_use' }, stats.inUse);
          this.set({ interpreter, state: 'waiting' }, stats.waiting);
          this.set({ interpreter, state: 'stranded' }, stats.stranded);
        }
      },
    });
  }

  recordExecution(execution: Execution): void {
    const outcome: ExecutionOutcome =
      execution.status === 'timed-out' ? 'timeout' : execution.results.every((r) => r.passed) ? 'passed' : 'failed';
    this.executions.inc({ language: execution.language, outcome });
    this.phase.observe({ phase: 'queue' }, execution.timings.queueMs / 1000);
    this.phase.observe({ phase: 'acquire' }, execution.timings.acquireMs / 1000);
    this.phase.observe({ phase: 'run' }, execution.timings.runMs / 1000);
    if (execution.timings.hopMs !== undefined) this.phase.observe({ phase: 'hop' }, execution.timings.hopMs / 1000);
  }

  /** An execution that did not run: `body` is the request as sent, `error` why. */
  recordFailure(body: unknown, error: unknown): void {
    const outcome: ExecutionOutcome = error instanceof SandboxError ? 'sandbox_error' : error instanceof BusyError ? 'busy' : 'rejected';
    this.executions.inc({ language: languageOf(body), outcome });
  }
}
