import { JsonThread, jsonThread, threadTask } from '../../web/json-thread.js';
import { textsEqual, wireFrame, type WireFrame } from './frame-reading.js';

const frameTask = threadTask(import.meta.url, './frame-reading', 'wireFrame', wireFrame);
const equalTask = threadTask(import.meta.url, './frame-reading', 'textsEqual', textsEqual);

/**
 * The runner's JSON work too large for the event loop, done in a JSON thread (src/web/json-thread.ts):
 * parsing frame lines over 8 KiB and comparing values kept as text. The process's instance uses
 * the thread the body parser uses too.
 */
export class JsonWorker {
  constructor(private readonly thread: JsonThread = new JsonThread()) {}

  /** Threads that died (or never started); past three the work is done on the caller's thread. */
  get threadFailures(): number {
    return this.thread.threadFailures;
  }

  /** Starts the thread now, so that the first large frame does not wait for it. */
  warm(): void {
    this.thread.warm();
  }

  /** Parses and checks a frame's JSON; null when it is malformed (then it is stray output). */
  readFrame(text: string): Promise<WireFrame | null> {
    return this.thread.run(frameTask, text);
  }

  /** Compares two values given as JSON text, as valuesEqual does. */
  equal(expected: string, actual: string): Promise<boolean> {
    return this.thread.run(equalTask, expected, actual);
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}

/** The process's JSON worker, on the process's JSON thread. */
export const jsonWorker = new JsonWorker(jsonThread);
