import { writeFileSync } from 'node:fs';
import type { RunnerTask, RunnerTestFile } from 'vitest';
import type { Reporter } from 'vitest/reporters';

/** One pass's outcome, as `test/run-all.sh` adds the passes up: counts and each failure's words. */
interface PassSummary {
  passed: number;
  failed: number;
  skipped: number;
  failures: Array<{ where: string; message: string }>;
}

/**
 * Writes the pass's summary to the file named by `SUMMARY_REPORT`. Unlike vitest's JSON report it
 * keeps what failed outside a test: a hook of a suite (an afterAll's leak check), a file that did
 * not load, an unhandled error. CI keeps only the tail of the output, so these have to be named
 * again at its end.
 */
export default class SummaryReporter implements Reporter {
  onFinished(files: RunnerTestFile[] = [], errors: unknown[] = []): void {
    const target = process.env.SUMMARY_REPORT;
    if (!target) throw new Error('SummaryReporter needs SUMMARY_REPORT, the file to write');
    const summary: PassSummary = { passed: 0, failed: 0, skipped: 0, failures: [] };
    const visit = (task: RunnerTask, names: string[]): void => {
      const path = task.type === 'suite' && task === task.file ? names : [...names, task.name];
      const state = task.result?.state;
      if (task.type === 'test') {
        if (state === 'pass') summary.passed += 1;
        else if (state === 'fail') summary.failed += 1;
        else summary.skipped += 1;
      } else if (state === 'fail' && (task.result?.errors?.length ?? 0) > 0) {
        // A suite or file whose own hook or collection failed: one failed check.
        summary.failed += 1;
      }
      for (const error of task.result?.errors ?? []) {
        summary.failures.push({ where: [task.file.filepath, ...path].join(' > '), message: error.stack || error.message });
      }
      if (task.type === 'suite') for (const child of task.tasks) visit(child, path);
    };
    for (const file of files) visit(file, []);
    for (const error of errors) {
      summary.failed += 1;
      summary.failures.push({ where: 'an unhandled error', message: describeError(error) });
    }
    writeFileSync(target, JSON.stringify(summary));
  }
}

/** Vitest hands unhandled errors over serialised: objects with a stack and a message, not Errors. */
function describeError(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { stack, message } = error as { stack?: unknown; message?: unknown };
    if (typeof stack === 'string' && stack) return stack;
    if (typeof message === 'string') return message;
  }
  return JSON.stringify(error) ?? String(error);
}
