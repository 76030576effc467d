/**
 * Runs one harness process (bare, or `docker run -i …`) through one job, the way the host does
 * (docs/harness-protocol.md): wait for the ready line, write the job line, collect what comes
 * back on stdout (frames and stray output) and stderr, and resolve when the process has exited.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { imageStartCommands } from './image-start.js';

const MARK = '\x1e';

// HARNESS_START=image: the suites run the harnesses as the runner images start them, and so
// prove that the faster start-up gives the same results as the source.
const started = process.env.HARNESS_START === 'image' ? imageStartCommands() : undefined;
export const PYTHON_HARNESS: readonly string[] = started?.python ?? ['python3', 'runners/python/harness.py'];
export const NODE_HARNESS: readonly string[] = started?.node ?? ['node', 'runners/node/harness.cjs'];

export interface JobCase {
  i: number;
  args: unknown[];
  kwargs?: Record<string, unknown>;
  undef?: number[];
}

export interface Job {
  nonce?: string;
  code: string;
  filename: string;
  target: { class?: string; names: string[] };
  cases: JobCase[];
  stdoutCap: number;
}

interface HarnessErrorInfo {
  type: string;
  message: string;
  line: number | null;
  column: number | null;
}

/** A frame as JSON.parse reads it; `raw` keeps the exact JSON text (big integers, `3.0`). */
interface Frame {
  t: 'loaded' | 'begin' | 'result' | 'done';
  i?: number;
  value?: unknown;
  error?: HarnessErrorInfo | null;
  ms?: number;
  stdout?: string;
  raw: string;
}

type OutputEvent = { kind: 'ready'; version: string } | { kind: 'frame'; frame: Frame } | { kind: 'stray'; text: string };

export interface HarnessRun {
  /** The runtime named by the ready line, if one came. */
  runtime: string | undefined;
  /** Everything on stdout in order: the ready line, frames and stray text. */
  events: OutputEvent[];
  frames: Frame[];
  /** All stray stdout text (anything that is not the ready line or a frame with the job's nonce). */
  stray: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** The result frame of case `i`. */
  result(i: number): Frame | undefined;
  loaded(): Frame | undefined;
}

export interface RunOptions {
  /** Kill the process after this long (default 20 s). */
  timeoutMs?: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Send the job without waiting for the ready line. */
  noWait?: boolean;
}

/** Builds a job with a fresh nonce and the usual defaults. */
export function makeJob(fields: Partial<Job> & Pick<Job, 'code' | 'target' | 'cases'>, filename = 'solution.py'): Job & { nonce: string } {
  return { nonce: randomBytes(16).toString('hex'), filename, stdoutCap: 65_536, ...fields } as Job & { nonce: string };
}

/**
 * Splits a harness's stdout into the ready line, frames carrying `nonce`, and stray text, the way
 * the host's parser does: a frame starts at \x1e and ends at the next newline; anything else,
 * including a frame-shaped line with another nonce, is stray.
 */
function splitOutput(text: string, nonce: string): OutputEvent[] {
  const events: OutputEvent[] = [];
  const stray = (piece: string) => {
    if (!piece) return;
    const last = events[events.length - 1];
    if (last?.kind === 'stray') last.text += piece;
    else events.push({ kind: 'stray', text: piece });
  };
  let position = 0;
  while (position < text.length) {
    const mark = text.indexOf(MARK, position);
    if (mark < 0) {
      stray(text.slice(position));
      break;
    }
    stray(text.slice(position, mark));
    const newline = text.indexOf('\n', mark);
    if (newline < 0) {
      stray(text.slice(mark));
      break;
    }
    const line = text.slice(mark + 1, newline);
    position = newline + 1;
    if (line.startsWith('ready ') && !events.some((event) => event.kind !== 'stray')) {
      events.push({ kind: 'ready', version: line.slice('ready '.length) });
      continue;
    }
    if (line.startsWith(`${nonce} `)) {
      const raw = line.slice(nonce.length + 1);
      try {
        const parsed = JSON.parse(raw) as Omit<Frame, 'raw'>;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
          events.push({ kind: 'frame', frame: { ...parsed, raw } });
          continue;
        }
      } catch {
        // not a frame: stray below
      }
    }
    stray(`${MARK}${line}\n`);
  }
  return events;
}

/**
 * Starts `command`, writes `job` (an object, or a JSON line sent byte for byte) once the ready
 * line is there, and resolves with everything the process printed once it has exited. Like the
 * host, it keeps stdin open after the job.
 */
export function runHarness(command: readonly string[], job: Job | string, options: RunOptions = {}): Promise<HarnessRun> {
  const line = typeof job === 'string' ? job : JSON.stringify(job);
  const nonce = String((JSON.parse(line) as { nonce?: unknown }).nonce ?? '');
  const child = spawn(command[0], command.slice(1), {
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  let sent = false;
  let seen = '';
  let timedOut = false;

  const send = () => {
    if (sent) return;
    sent = true;
    child.stdin.write(line.endsWith('\n') ? line : `${line}\n`);
  };
  child.stdin.on('error', () => undefined);
  child.stdout.on('data', (chunk: Buffer) => {
    stdout.push(chunk);
    if (!sent && seen.length < 4096) {
      seen += chunk.toString('latin1');
      // eslint-disable-next-line no-control-regex -- the harness marks its lines with the record separator
      if (/\x1eready [^\n]*\n/.test(seen)) send();
    }
  });
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  if (options.noWait) send();

  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs ?? 20_000);

  return new Promise<HarnessRun>((resolve, reject) => {
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (exitCode, signal) => {
      clearTimeout(timer);
      child.stdin.destroy();
      const events = splitOutput(Buffer.concat(stdout).toString('utf8'), nonce);
      const frames = events.flatMap((event) => (event.kind === 'frame' ? [event.frame] : []));
      const ready = events.find((event) => event.kind === 'ready');
      resolve({
        runtime: ready?.kind === 'ready' ? ready.version : undefined,
        events,
        frames,
        stray: events.map((event) => (event.kind === 'stray' ? event.text : '')).join(''),
        stderr: Buffer.concat(stderr).toString('utf8'),
        exitCode,
        signal,
        timedOut,
        result: (i) => frames.find((frame) => frame.t === 'result' && frame.i === i),
        loaded: () => frames.find((frame) => frame.t === 'loaded'),
      });
    });
  });
}
