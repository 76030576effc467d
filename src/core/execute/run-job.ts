import { randomBytes } from 'node:crypto';
import { exactJson } from '../../web/json.js';
import type { HarnessEvent } from '../sandbox/frame-parser.js';
import type { ExitInfo, Sandbox } from '../sandbox/sandbox.js';
import { formatHarnessError, type HarnessError } from './harness-error.js';
import { joinOutput } from './output.js';

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

/** Why a job stopped: it finished, ran out of time (whole or one case), was killed for memory, its process died, or the caller cancelled it. */
type JobEnd = 'done' | 'deadline' | 'case-timeout' | 'memory' | 'exited' | 'cancelled';

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
}

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

  return new Promise<JobReport>((resolve, reject) => {
    let settled = false;
    let caseTimer: NodeJS.Timeout | undefined;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(deadlineTimer);
      clearTimeout(caseTimer);
      limits.signal?.removeEventListener('abort', cancel);
      return true;
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
    const onEvent = (event: HarnessEvent) => {
      if (settled) return;
      if (event.kind === 'frame') onFrame(event.frame);
      else if (event.kind === 'stray' && stray.length <= job.stdoutCap * 2) stray += event.text;
    };

    const sentAt = Date.now();
    sandbox.listen(onEvent);
    sandbox.exited.then(
      async (exit) => {
        await Promise.race([sandbox.drained, new Promise((r) => setTimeout(r, DRAIN_GRACE_MS))]);
        finish(exit.oomKilled || V8_HEAP_EXHAUSTED.test(stray) ? 'memory' : 'exited', exit);
      },
      // The engine could not tell how the container ended (it went away mid-run): a sandbox failure, not a result.
      (error: unknown) => {
        if (settle()) reject(error);
      },
    );
    sandbox.send(nonce, encodeJob(job, nonce));
  });
}
