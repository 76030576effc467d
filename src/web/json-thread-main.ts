// The JSON thread (started by json-thread.ts): runs the tasks it is sent, one at a time, in
// arrival order, importing each task's module on first use.
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { ThreadAnswer, ThreadRequest } from './json-thread.js';

// On two cores a large parse here competes with the event loop for a CPU; a lower priority lets the
// event loop preempt it. On Linux this lowers this thread only (setpriority on the calling thread).
try {
  os.setPriority(10);
} catch {
  // a platform that refuses leaves the thread at the process's priority
}

type TaskFunction = (...args: unknown[]) => unknown;

/** The thread cannot run a task at all (its module did not load, its result cannot be copied): the caller runs it. */
class Unavailable extends Error {}

const modules = new Map<string, Promise<Record<string, unknown>>>();

async function taskFunction(module: string, name: string): Promise<TaskFunction> {
  let loaded = modules.get(module);
  if (!loaded) {
    loaded = import(module) as Promise<Record<string, unknown>>;
    modules.set(module, loaded);
  }
  let exports: Record<string, unknown>;
  try {
    exports = await loaded;
  } catch (error) {
    throw new Unavailable(`${module} did not load: ${String(error)}`);
  }
  const found = exports[name];
  if (typeof found !== 'function') throw new Unavailable(`${module} exports no function ${name}`);
  return found as TaskFunction;
}

function failed(id: number, error: unknown): ThreadAnswer {
  if (error instanceof Unavailable) return { id, unavailable: error.message };
  return { id, failed: error instanceof Error ? error.message : String(error) };
}

async function answer({ id, module, name, args }: ThreadRequest): Promise<void> {
  let message: ThreadAnswer;
  try {
    message = { id, result: (await taskFunction(module, name))(...args) };
  } catch (error) {
    message = failed(id, error);
  }
  try {
    parentPort?.postMessage(message);
  } catch (error) {
    parentPort?.postMessage(failed(id, new Unavailable(`the result cannot be copied: ${String(error)}`)));
  }
}

let queue = Promise.resolve();
parentPort?.on('message', (request: ThreadRequest) => {
  queue = queue.then(() => answer(request));
});
