// A sandbox without Docker for fast tests of the execution pipeline. Its "process" is a script that
// reads the job the host wrote and answers in the harness protocol's bytes (docs/harness-protocol.md),
// which go through the real FrameParser as a container's stdout does.
import type { Interpreter } from '../../src/core/languages.js';
import { FrameParser, type HarnessEvent } from '../../src/core/sandbox/frame-parser.js';
import type { ExitInfo, Sandbox, SandboxEngine } from '../../src/core/sandbox/sandbox.js';
import { SandboxError } from '../../src/web/errors.js';
import { exactJson, parseExactJson } from '../../src/web/json.js';

export interface ReceivedCase {
  i: number;
  /** Values as the harness parses them: lossless numbers keep their text (`3.0`, big integers). */
  args: unknown[];
  kwargs: Record<string, unknown>;
  undef: number[];
}

/** The job line the host wrote to the harness's stdin (section 2), and what it holds. */
export interface ReceivedJob {
  line: string;
  nonce: string;
  code: string;
  filename: string;
  target: { class?: string; names: string[] };
  cases: ReceivedCase[];
  stdoutCap: number;
}

/** An error as a frame carries it (section 3). */
export interface FrameError {
  type: string;
  message: string;
  line?: number | null;
  column?: number | null;
}

/** A case's answer; `value` is the return value's JSON text as the harness encodes it (section 4). */
export interface CaseAnswer {
  value?: string;
  error?: FrameError;
  ms?: number;
  stdout?: string;
}

export interface HarnessScript {
  /** What the harness does as it starts, before it reads stdin; by default it prints the ready line. */
  start?: (harness: FakeHarness) => void;
  /** What it does with the job; an exception here is the test's own failure, reported as unhandled. */
  job: (job: ReceivedJob, harness: FakeHarness) => void | Promise<void>;
}

type Ending = { statusCode: number; oomKilled: boolean } | { lost: SandboxError };

interface Wire {
  nonce: () => string;
  alive: () => boolean;
  stdout: (bytes: Buffer) => void;
  stderr: (text: string) => void;
  end: (ending: Ending) => void;
}

/** The in-sandbox side: what a script makes the harness write, and how its process ends. Nothing is written once it ended. */
export class FakeHarness {
  constructor(private readonly wire: Wire) {}

  readyLine(version = 'Fake 1.0'): void {
    this.write(`\x1eready ${version}\n`);
  }

  /** One frame with the job's nonce; numbers keep their exact text. */
  frame(fields: Record<string, unknown>): void {
    this.write(`\x1e${this.wire.nonce()} ${exactJson(fields)}\n`);
  }

  loaded(error: FrameError | null = null, stdout = ''): void {
    this.frame(error ? { t: 'loaded', error, stdout } : { t: 'loaded', error: null });
  }

  begin(i: number): void {
    this.frame({ t: 'begin', i });
  }

  result(i: number, answer: CaseAnswer): void {
    const value = answer.error ? null : parseExactJson(answer.value ?? 'null');
    this.frame({ t: 'result', i, value, error: answer.error ?? null, ms: answer.ms ?? 1, stdout: answer.stdout ?? '' });
  }

  /** The last frame; like the real harness, the process then exits 0. */
  done(): void {
    this.frame({ t: 'done' });
    this.exit(0);
  }

  /** Runs the job as a well-behaved harness does: loaded, begin and result for each case, done. */
  answerAll(job: ReceivedJob, answer: (testCase: ReceivedCase) => CaseAnswer): void {
    this.loaded();
    for (const testCase of job.cases) {
      this.begin(testCase.i);
      this.result(testCase.i, answer(testCase));
    }
    this.done();
  }

  /** Bytes on stdout that the harness did not frame: user code writing to fd 1, a half frame, garbage. */
  write(bytes: string | Buffer): void {
    if (this.wire.alive()) this.wire.stdout(Buffer.from(bytes));
  }

  stderr(text: string): void {
    if (this.wire.alive()) this.wire.stderr(text);
  }

  exit(statusCode: number, oomKilled = false): void {
    if (this.wire.alive()) this.wire.end({ statusCode, oomKilled });
  }

  /** The engine loses the process (its connection drops): the host never learns how it ended. */
  loseEngine(): void {
    if (this.wire.alive()) this.wire.end({ lost: new SandboxError('wait', 'socket hang up') });
  }
}

function readJob(line: string): ReceivedJob {
  if (line.trimEnd().includes('\n')) throw new Error('the job is not one line');
  const job = parseExactJson(line) as Omit<ReceivedJob, 'line' | 'cases' | 'stdoutCap'> & {
    cases: Array<Omit<ReceivedCase, 'i'> & { i: unknown }>;
    stdoutCap: unknown;
  };
  return { ...job, line, cases: job.cases.map((c) => ({ ...c, i: Number(c.i) })), stdoutCap: Number(job.stdoutCap) };
}

const SIGKILL_STATUS = 137;

/** The host side, as DockerSandbox: events buffered until a listener comes, SIGKILL on kill, removal on dispose. */
export class FakeSandbox implements Sandbox {
  readonly createdAt = Date.now();
  readonly ready: Promise<string>;
  readonly exited: Promise<ExitInfo>;
  readonly drained: Promise<void>;
  private readonly harness: FakeHarness;
  /** The job the host sent, once it did. */
  job: ReceivedJob | undefined;
  killed = false;
  disposed = false;
  private ended = false;
  private listener: ((event: HarnessEvent) => void) | undefined;
  private backlog: HarnessEvent[] = [];
  private readonly parser = new FrameParser((event) => this.dispatch(event));
  private resolveReady!: (version: string) => void;
  private rejectReady!: (error: Error) => void;
  private settleExit!: { resolve: (exit: ExitInfo) => void; reject: (error: Error) => void };
  private resolveDrained!: () => void;

  constructor(private readonly script: HarnessScript) {
    this.ready = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    this.ready.catch(() => undefined);
    this.exited = new Promise((resolve, reject) => {
      this.settleExit = { resolve, reject };
    });
    this.exited.catch(() => undefined);
    this.drained = new Promise((resolve) => {
      this.resolveDrained = resolve;
    });
    this.harness = new FakeHarness({
      nonce: () => this.job?.nonce ?? '',
      alive: () => this.isAlive,
      stdout: (bytes) => this.parser.push(bytes),
      stderr: (text) => this.dispatch({ kind: 'stray', text }),
      end: (ending) => this.end(ending),
    });
    (script.start ?? ((harness) => harness.readyLine()))(this.harness);
  }

  get isAlive(): boolean {
    return !this.ended && !this.killed;
  }

  listen(listener: (event: HarnessEvent) => void): void {
    this.listener = listener;
    const backlog = this.backlog;
    this.backlog = [];
    for (const event of backlog) listener(event);
  }

  send(nonce: string, jobLine: string): void {
    if (this.job) throw new Error('a sandbox takes one job');
    this.parser.setNonce(nonce);
    const job = readJob(jobLine);
    if (job.nonce !== nonce) throw new Error(`the job line carries nonce ${job.nonce}, the parser expects ${nonce}`);
    this.job = job;
    // A process reads its stdin after the host wrote it, never within the write.
    setImmediate(() => void this.script.job(job, this.harness));
  }

  async kill(): Promise<void> {
    if (!this.isAlive) return;
    this.killed = true;
    this.end({ statusCode: SIGKILL_STATUS, oomKilled: false });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.kill();
  }

  private end(ending: Ending): void {
    if (this.ended) return;
    this.ended = true;
    this.parser.end();
    this.resolveDrained();
    this.rejectReady(new SandboxError('start', 'the harness exited before it was ready'));
    if ('lost' in ending) this.settleExit.reject(ending.lost);
    else this.settleExit.resolve({ ...ending, killedByHost: this.killed });
  }

  private dispatch(event: HarnessEvent): void {
    if (event.kind === 'ready') this.resolveReady(event.version);
    else if (this.listener) this.listener(event);
    else this.backlog.push(event);
  }
}

/** Starts fake sandboxes that all run one script, and keeps them for the test to inspect. */
export class FakeEngine implements SandboxEngine {
  readonly ociRuntime = 'fake';
  readonly started: Array<{ interpreter: Interpreter; sandbox: FakeSandbox }> = [];
  removeAllCalls = 0;

  constructor(private readonly script: HarnessScript) {}

  /** The jobs the sandboxes received, in the order they were started. */
  get jobs(): ReceivedJob[] {
    return this.started.flatMap(({ sandbox }) => (sandbox.job ? [sandbox.job] : []));
  }

  async startSandbox(interpreter: Interpreter): Promise<FakeSandbox> {
    const sandbox = new FakeSandbox(this.script);
    this.started.push({ interpreter, sandbox });
    return sandbox;
  }

  async checks(): Promise<Record<string, string>> {
    return { engine: 'ok' };
  }

  async removeAll(): Promise<void> {
    this.removeAllCalls += 1;
  }
}
