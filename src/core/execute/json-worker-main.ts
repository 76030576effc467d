// The JSON worker's thread (started by json-worker.ts): parses large frames and compares large
// values, so that the event loop never holds a lossless parse of more than 8 KiB.
import { parentPort } from 'node:worker_threads';
import { textsEqual, wireFrame } from './frame-reading.js';
import type { WorkerAnswer, WorkerRequest } from './json-worker.js';

parentPort?.on('message', (request: WorkerRequest) => {
  let answer: WorkerAnswer;
  try {
    answer =
      request.op === 'frame'
        ? { id: request.id, frame: wireFrame(request.text) }
        : { id: request.id, equal: textsEqual(request.expected, request.actual) };
  } catch (error) {
    answer = { id: request.id, failed: String(error) };
  }
  parentPort?.postMessage(answer);
});
