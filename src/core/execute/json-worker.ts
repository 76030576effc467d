import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { textsEqual, wireFrame, type WireFrame } from './frame-reading.js';

export type WorkerRequest = { id: number; op: 'frame'; text: string } | { id: number; op: 'equal'; expected: string; actual: string };
export type WorkerAnswer = { id: number; frame: WireFrame | null } | { id: number; equal: boolean } | { id: number; failed: string };

/** After this many threads died, the work is done on the caller's thread: slower, but still correct. */
const MAX_THREAD_FAILURES = 3;

function startThread(): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fromSource ? new URL('./json-worker-main.ts', import.meta.url) : new URL('./json-worker-main.js', import.meta.url);
  if (!fromSource) return new Worker(entry);
  // Run from the TypeScript sources (tests, tsx): the thread registers tsx's module hooks first,
  // through its ESM API (require.resolve finds the CommonJS twin next to it).
  const api = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const loader = pathToFileURL(api).href;
  const boot =
    "const { workerData } = require('node:worker_threads');\nimport(workerData.loader).then((tsx) => { tsx.register(); return import(workerData.entry); });";
  // (not inherited `--import tsx`: under Node 20 its hooks are not in place before a thread's entry loads)
  return new Worker(boot, { eval: true, execArgv: [], workerData: { loader, entry: entry.href } });
}

/**
 * One thread, shared by every execution of the process, that does the JSON work too large for the
 * event loop: parsing frame lines over 8 KiB and comparing values kept as text. It starts on first
 * use (or `warm()`), does its work in arrival order, and does not keep the process alive when idle.
 */
export class JsonWorker {
  private thread: Worker | undefined;
  private failures = 0;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (answer: WorkerAnswer) => void; reject: (error: Error) => void }>();

  /** Threads that died (or never started); past three the work is done on the caller's thread. */
  get threadFailures(): number {
    return this.failures;
  }

  /** Starts the thread now, so that the first large frame does not wait for it. */
  warm(): void {
    if (this.failures < MAX_THREAD_FAILURES) this.start().unref();
  }

  /** Parses and checks a frame's JSON; null when it is malformed (then it is stray output). */
  async readFrame(text: string): Promise<WireFrame | null> {
    const answer = await this.ask({ op: 'frame', text }).catch(() => undefined);
    return answer && 'frame' in answer ? answer.frame : wireFrame(text);
  }

  /** Compares two values given as JSON text, as valuesEqual does. */
  async equal(expected: string, actual: string): Promise<boolean> {
    const answer = await this.ask({ op: 'equal', expected, actual }).catch(() => undefined);
    return answer && 'equal' in answer ? answer.equal : textsEqual(expected, actual);
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiter of waiting) waiter.reject(new Error('the JSON worker was closed'));
    await thread?.terminate();
  }

  private ask(request: { op: 'frame'; text: string } | { op: 'equal'; expected: string; actual: string }): Promise<WorkerAnswer> {
    if (this.failures >= MAX_THREAD_FAILURES) return Promise.reject(new Error('the JSON worker is not available'));
    const thread = this.start();
    const id = (this.nextId += 1);
    return new Promise<WorkerAnswer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      thread.ref();
      thread.postMessage({ ...request, id } satisfies WorkerRequest);
    });
  }

  private start(): Worker {
    if (this.thread) return this.thread;
    const thread = startThread();
    this.thread = thread;
    thread.on('message', (answer: WorkerAnswer) => {
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (this.waiting.size === 0) thread.unref();
      if (!waiter) return;
      if ('failed' in answer) waiter.reject(new Error(answer.failed));
      else waiter.resolve(answer);
    });
    const lost = (error: Error) => {
      if (this.thread !== thread) return;
      this.thread = undefined;
      this.failures += 1;
      const waiting = [...this.waiting.values()];
      this.waiting.clear();
      for (const waiter of waiting) waiter.reject(error);
    };
    thread.on('error', lost);
    thread.on('exit', (code) => lost(new Error(`the JSON worker exited (${code})`)));
    return thread;
  }
}

/** The process's JSON worker. */
export const jsonWorker = new JsonWorker();
