import type { SandboxPool } from '../sandbox/pool.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { ResultBudget } from './result-budget.js';
import { runJob, type CaseOutcome, type HarnessJob } from './run-job.js';

const TIMED_OUT = 'timed out';

export interface JobResult {
  outcomes: Map<number, CaseOutcome>;
  /** Why cases without an outcome have none. */
  reasons: Map<number, string>;
  /** Output from before the first case (module load, or a process that died early): it belongs to the first case. */
  leadingStdout: string;
  timedOut: boolean;
  acquireMs: number;
  runMs: number;
}

export interface JobLimits {
  deadline: number;
  caseTimeoutMs: number | undefined;
  memoryMb: number;
  /** Aborted when the caller may no longer run the job: it stops and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Bytes the job's results may take together (docs/api.md, "Results"); 4 MiB by default. */
  resultBudgetBytes?: number;
}

function untilDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | 'deadline'> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/**
 * Runs every case of a job, each container used once. A case over its own time limit kills its
 * container; the cases after it continue in a fresh one while the overall budget lasts.
 */
export async function executeJob(pool: SandboxPool, job: HarnessJob, limits: JobLimits): Promise<JobResult> {
  const result: JobResult = { outcomes: new Map(), reasons: new Map(), leadingStdout: '', timedOut: false, acquireMs: 0, runMs: 0 };
  let remaining = job.cases;
  let firstContainer = true;
  const budget = new ResultBudget(limits.resultBudgetBytes);
  const markRest = (reason: string) => {
    for (const c of remaining) if (!result.outcomes.has(c.i)) result.reasons.set(c.i, reason);
  };

  while (remaining.length > 0) {
    limits.signal?.throwIfAborted();
    const acquireStart = Date.now();
    const acquiring = pool.acquire();
    const sandbox = await untilDeadline(acquiring, limits.deadline);
    result.acquireMs += Date.now() - acquireStart;
    if (sandbox === 'deadline') {
      void acquiring.then(
        (late: Sandbox) => pool.retire(late),
        () => undefined,
      );
      result.timedOut = true;
      markRest(TIMED_OUT);
      break;
    }
    const runStart = Date.now();
    let report;
    try {
      report = await runJob(sandbox, { ...job, cases: remaining }, { ...limits, budget });
    } finally {
      pool.retire(sandbox);
    }
    result.runMs += Date.now() - runStart;

    for (const [i, outcome] of report.outcomes) result.outcomes.set(i, outcome);
    if (firstContainer) result.leadingStdout = report.loadStdout;
    firstContainer = false;
    if (report.loadError !== undefined) {
      for (const c of remaining) {
        const outcome = result.outcomes.get(c.i);
        if (outcome) outcome.error = report.loadError;
        else result.reasons.set(c.i, report.loadError);
      }
      break;
    }
    switch (report.end) {
      case 'done':
        markRest('the harness finished without a result for this case');
        remaining = [];
        break;
      case 'deadline':
        result.timedOut = true;
        markRest(TIMED_OUT);
        remaining = [];
        break;
      case 'case-timeout': {
        const running = report.runningCase;
        if (running !== undefined) result.reasons.set(running, TIMED_OUT);
        remaining = remaining.filter((c) => !result.outcomes.has(c.i) && c.i !== running);
        break;
      }
      case 'memory':
        markRest(`memory limit exceeded (${limits.memoryMb} MB)`);
        remaining = [];
        break;
      case 'exited':
        markRest(`the sandbox process exited before this case finished (exit code ${report.exit?.statusCode ?? 'unknown'})`);
        remaining = [];
        break;
      case 'budget':
        // the case whose frame went past the budget has no outcome either
        markRest(budget.message);
        remaining = [];
        break;
      case 'cancelled':
        throw limits.signal?.reason;
    }
  }
  return result;
}
