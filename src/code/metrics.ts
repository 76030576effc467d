import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Execution, Runner } from '../core/runner.js';

export type ExecutionOutcome = 'passed' | 'failed' | 'timeout' | 'rejected' | 'sandbox_error' | 'busy';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 20];

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
    help: 'Execution latency by phase: queue wait, container acquisition, run time',
    labelNames: ['phase'],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  constructor(runner: Runner) {
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
  }

  recordFailure(language: string, outcome: ExecutionOutcome): void {
    this.executions.inc({ language, outcome });
  }
}
