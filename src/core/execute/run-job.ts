import { randomBytes } from 'node:crypto';
import { exactJson } from '../../web/json.js';
import type { HarnessEvent } from '../sandbox/frame-parser.js';
import type { ExitInfo, Sandbox } from '../sandbox/sandbox.js';
import { fromWire } from './frame-reading.js';
import { formatHarnessError, type HarnessError } from './harness-error.js';
import { jsonWorker } from './json-worker.js';
import { joinOutput } from './output.js';
import { ResultBudget } from './result-budget.js';

export interface BoundCase {
  i: number;
  args: unknown[];
  kwargs: Record<string, unknown>;
  undef: number[];
}

export interface HarnessJob {
  code: string;
  filename: string;
  target: { class?: string; names: string[] };
  cases: BoundCase[];
  stdoutCap: number;
  lineMap?: (line: number) => number;
}

export interface CaseOutcome {
  value: unknown;
  error: string | null;
  ms: number;
  stdout: string;
}

/**
 * Why a job stopped: it finished, ran out of time (whole or one case), was killed for memory, its
 * process died, the caller cancelled it, or it sent back more than the execution's result budget.
 */
type JobEnd = 'done' | 'deadline' | 'case-timeout' | 'memory' | 'exited' | 'cancelled' | 'budget';

export interface JobReport {
  outcomes: Map<number, CaseOutcome>;
  end: JobEnd;
  /** The case that was running when the job stopped early. */
  runningCase: number | undefined;
  /** Set when the module failed to load (or the target is missing): applies to every case. */
  loadError: string | undefined;
  loadStdout: string;
  exit: ExitInfo | undefined;
}

export interface RunLimits {
  deadline: number;
  caseTimeoutMs: number | undefined;
  /** Aborted when the caller may no longer run it (a revoked key): the sandbox is killed at once. */
  signal?: AbortSignal;
  /** The execution's result budget (shared by its containers); once it is used up the sandbox is killed. */
  budget?: ResultBudget;
}

/** A step of reading the job's events, in arrival order: run now, or once a large frame is parsed. */
type Step = (() => void) | Promise<() => void>;

const DRAIN_GRACE_MS = 500;
// Node aborts on its own heap limit (set below the container's) before the kernel's OOM killer acts.
const V8_HEAP_EXHAUSTED = /JavaScript heap out of memory/;

/** The job line the harness reads on stdin (docs/harness-protocol.md, section 2). */
export function encodeJob(job: HarnessJob, nonce: string): string {
  const { lineMap: _lineMap, ...wire } = job;
  return exactJson({ nonce, ...wire });
}

/** Sends one job to a ready sandbox and collects its streamed results until it ends, one way or another. */
export function runJob(sandbox: Sandbox, job: HarnessJob, limits: RunLimits): Promise<JobReport> {
  const nonce = randomBytes(16).toString('hex');
  const report: JobReport = {
    outcomes: new Map(),
    end: 'done',
    runningCase: undefined,
    loadError: undefined,
    loadStdout: '',
    exit: undefined,
  };
  let stray = '';
  let sawFirstCase = false;
  const budget = limits.budget ?? new ResultBudget();
  const strayLimit = job.stdoutCap * 2;

  return new Promise<JobReport>((resolve, reject) => {
    let settled = false;
    let caseTimer: NodeJS.Timeout | undefined;
    // Events are handled in arrival order; a frame parsed off the event loop holds back those after it.
    const steps: Step[] = [];
    let stepping = false;
    let idle: Array<() => void> = [];
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(deadlineTimer);
      clearTimeout(caseTimer);
      limits.signal?.removeEventListener('abort', cancel);
      steps.length = 0;
      return true;
    };
    const whenIdle = () => (stepping || steps.length > 0 ? new Promise<void>((resolve) => idle.push(resolve)) : Promise.resolve());
    const runSteps = async () => {
      stepping = true;
      while (steps.length > 0 && !settled) {
        const step = steps.shift() as Step;
        const run = typeof step === 'function' ? step : await step;
        if (!settled) run();
      }
      stepping = false;
      const waiting = idle;
      idle = [];
      for (const resolve of waiting) resolve();
    };
    const enqueue = (step: Step) => {
      if (!stepping && steps.length === 0 && typeof step === 'function') return step();
      steps.push(step);
      if (!stepping) void runSteps();
    };
    const finish = (end: JobEnd, exit?: ExitInfo) => {
      if (!settle()) return;
      report.end = end;
      report.exit = exit;
      if (report.loadError !== undefined || (!sawFirstCase && end !== 'done'))
        report.loadStdout = joinOutput(report.loadStdout, stray, job.stdoutCap);
      resolve(report);
    };
    const stop = (end: JobEnd) => {
      if (settled) return;
      void sandbox.kill();
      finish(end);
    };
    // Past the budget nothing more is read: the sandbox is killed, and the frames already taken in are kept.
    let overBudget = false;
    const exceedBudget = () => {
      overBudget = true;
      void sandbox.kill();
      void whenIdle().then(() => finish('budget'));
    };
    const deadlineTimer = setTimeout(() => stop('deadline'), Math.max(0, limits.deadline - Date.now()));
    const cancel = () => stop('cancelled');
    limits.signal?.addEventListener('abort', cancel, { once: true });
    if (limits.signal?.aborted) return cancel();

    const onFrame = (frame: Record<string, unknown>) => {
      switch (frame.t) {
        case 'loaded':
          if (frame.error) {
            report.loadError = formatHarnessError(frame.error as HarnessError, job.lineMap);
            report.loadStdout = typeof frame.stdout === 'string' ? frame.stdout : '';
          }
          break;
        case 'begin':
          report.runningCase = Number(frame.i);
          if (limits.caseTimeoutMs !== undefined) {
            clearTimeout(caseTimer);
            caseTimer = setTimeout(() => stop('case-timeout'), limits.caseTimeoutMs);
          }
          break;
        case 'result': {
          clearTimeout(caseTimer);
          const i = Number(frame.i);
          report.outcomes.set(i, {
            value: frame.error ? null : (frame.value ?? null),
            error: frame.error ? formatHarnessError(frame.error as HarnessError, job.lineMap) : null,
            // A frame can be forged by the user's code; no case took longer than the job has run.
            ms: Math.min(Number(frame.ms) || 0, Date.now() - sentAt),
            stdout: joinOutput(typeof frame.stdout === 'string' ? frame.stdout : '', stray, job.stdoutCap),
          });
          stray = '';
          sawFirstCase = true;
          report.runningCase = undefined;
          break;
        }
        case 'done':
          finish('done');
          break;
        default:
          break;
      }
    };
    const addStray = (text: string) => {
      if (stray.length > strayLimit) return;
      if (budget.spend(text.length)) stray += text;
      else exceedBudget();
    };
    const onEvent = (event: HarnessEvent) => {
      if (settled || overBudget) return;
      switch (event.kind) {
        case 'frame':
          if (!budget.spend(event.bytes ?? 0)) return exceedBudget();
          return enqueue(() => onFrame(event.frame));
        case 'frame-text': {
          if (!budget.spend(event.bytes)) return exceedBudget();
          const parsed = jsonWorker.readFrame(event.text);
          return enqueue(
            parsed.then((wire) => () => (wire ? onFrame(fromWire(wire)) : addStray(`\x1e${nonce} ${event.text.slice(0, strayLimit)}`))),
          );
        }
        case 'stray':
          return enqueue(() => {
            if (!overBudget) addStray(event.text);
          });
        default:
          return undefined;
      }
    };

    const sentAt = Date.now();
    sandbox.listen(onEvent);
    sandbox.exited.then(
      async (exit) => {
        await Promise.race([sandbox.drained, new Promise((r) => setTimeout(r, DRAIN_GRACE_MS))]);
        // frames still being parsed came before the exit (the deadline timer bounds the wait)
        await whenIdle();
        if (overBudget) finish('budget', exit);
        else finish(exit.oomKilled || V8_HEAP_EXHAUSTED.test(stray) ? 'memory' : 'exited', exit);
      },
      // The engine could not tell how the container ended (it went away mid-run): a sandbox failure, not a result.
      (error: unknown) => {
        if (settle()) reject(error);
      },
    );
    sandbox.send(nonce, encodeJob(job, nonce));
  });
}
