import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** A function the JSON thread runs: exported as `name` by `module`, and `local`, the same function on the caller's thread. */
export interface ThreadTask<A extends unknown[], R> {
  /** The file URL of the module that exports it (imported by the thread on first use). */
  module: string;
  name: string;
  local: (...args: A) => R;
}

/** What the thread is sent and answers (json-thread-main.ts). */
export interface ThreadRequest {
  id: number;
  module: string;
  name: string;
  args: unknown[];
}
/** `failed`: the task threw (its message); `unavailable`: the thread could not run it, the caller does. */
export type ThreadAnswer = { id: number; result: unknown } | { id: number; failed: string } | { id: number; unavailable: string };

/**
 * The task `name` of the module at `path` beside the caller (`path` without extension: `.ts` when
 * the caller runs from the sources, `.js` when built), with `local` as its counterpart here.
 */
export function threadTask<A extends unknown[], R>(
  callerUrl: string,
  path: string,
  name: string,
  local: (...args: A) => R,
): ThreadTask<A, R> {
  const extension = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  return { module: new URL(`${path}${extension}`, callerUrl).href, name, local };
}

/** After this many threads died, tasks run on the caller's thread: slower, but still correct. */
const MAX_THREAD_FAILURES = 3;

function startThread(): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fromSource ? new URL('./json-thread-main.ts', import.meta.url) : new URL('./json-thread-main.js', import.meta.url);
  if (!fromSource) return new Worker(entry);
  // Run from the TypeScript sources (tests, tsx): the thread registers tsx's module hooks first,
  // through its ESM API (require.resolve finds the CommonJS twin next to it), so that it can also
  // import the tasks' .ts modules.
  const api = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const loader = pathToFileURL(api).href;
  const boot =
    "const { workerData } = require('node:worker_threads');\nimport(workerData.loader).then((tsx) => { tsx.register(); return import(workerData.entry); });";
  // (not inherited `--import tsx`: under Node 20 its hooks are not in place before a thread's entry loads)
  return new Worker(boot, { eval: true, execArgv: [], workerData: { loader, entry: entry.href } });
}

interface Waiter {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  /** Runs the task on the caller's thread instead (the thread died or was closed first). */
  runHere: () => unknown;
}

function runHere(waiter: Waiter): void {
  try {
    waiter.resolve(waiter.runHere());
  } catch (error) {
    waiter.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * One worker thread for the JSON work too large for the event loop: parsing large request bodies
 * and frames, comparing large values. It runs the tasks it is given (ThreadTask) in arrival order,
 * starts on first use (or `warm()`) and does not keep the process alive when idle. A task that
 * throws there rejects with its message; a task the thread cannot run (its module does not load),
 * tasks waiting when the thread is lost, and every task past three lost threads run on the
 * caller's thread.
 */
export class JsonThread {
  private thread: Worker | undefined;
  private failures = 0;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiter>();

  /** Threads that died (or never started). */
  get threadFailures(): number {
    return this.failures;
  }

  /** Starts the thread now, so that the first large task does not wait for it. */
  warm(): void {
    if (this.failures < MAX_THREAD_FAILURES) this.start().unref();
  }

  run<A extends unknown[], R>(task: ThreadTask<A, R>, ...args: A): Promise<R> {
    if (this.failures >= MAX_THREAD_FAILURES) return Promise.resolve().then(() => task.local(...args));
    const thread = this.start();
    const id = (this.nextId += 1);
    return new Promise<R>((resolve, reject) => {
      // the answer is the task's own result, copied across by structured clone
      this.waiting.set(id, { resolve: (result) => resolve(result as R), reject, runHere: () => task.local(...args) });
      thread.ref();
      thread.postMessage({ id, module: task.module, name: task.name, args } satisfies ThreadRequest);
    });
  }

  /** Ends the thread; tasks still waiting run on the caller's thread, and a later task starts a new one. */
  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    this.runWaitingHere();
    await thread?.terminate();
  }

  private runWaitingHere(): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiter of waiting) runHere(waiter);
  }

  private start(): Worker {
    if (this.thread) return this.thread;
    const thread = startThread();
    this.thread = thread;
    thread.on('message', (answer: ThreadAnswer) => {
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (this.waiting.size === 0) thread.unref();
      if (!waiter) return;
      if ('failed' in answer) waiter.reject(new Error(answer.failed));
      else if ('unavailable' in answer) runHere(waiter);
      else waiter.resolve(answer.result);
    });
    const lost = () => {
      if (this.thread !== thread) return;
      this.thread = undefined;
      this.failures += 1;
      this.runWaitingHere();
    };
    thread.on('error', lost);
    thread.on('exit', lost);
    return thread;
  }
}

/** The process's JSON thread, shared by the body parser and the runner. */
export const jsonThread = new JsonThread();
