import { SandboxError } from '../../web/errors.js';
import { FrameParser, type HarnessEvent } from './frame-parser.js';

/** Stray output kept to explain a harness that exited before it was ready. */
const EARLY_OUTPUT_CHARS = 500;

/**
 * What every sandbox driver does with a harness's output streams: stdout goes through the frame
 * parser, stderr is stray output, the ready line settles `ready`, and events are buffered until
 * the job's listener is attached.
 */
export class HarnessOutput {
  readonly ready: Promise<string>;
  private readonly parser = new FrameParser((event) => this.dispatch(event));
  private listener: ((event: HarnessEvent) => void) | undefined;
  private backlog: HarnessEvent[] = [];
  private earlyOutput = '';
  private discarding = false;
  private resolveReady!: (version: string) => void;
  private rejectReady!: (error: Error) => void;

  constructor() {
    this.ready = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    this.ready.catch(() => undefined);
  }

  stdout(chunk: Buffer): void {
    if (!this.discarding) this.parser.push(chunk);
  }

  stderr(chunk: Buffer): void {
    if (!this.discarding) this.dispatch({ kind: 'stray', text: chunk.toString('utf8') });
  }

  /**
   * The host is killing the harness: whatever it still writes until it dies is dropped unread. A
   * flood keeps its pipe full while the kill is on its way (a runtime process to start, or an engine
   * call), and decoding that output would cost the event loop about 1-2 ms per MiB for nothing.
   */
  discard(): void {
    this.discarding = true;
  }

  /** The output streams ended. */
  end(): void {
    this.parser.end();
  }

  /** Starts receiving events; anything that arrived before is replayed first. */
  listen(listener: (event: HarnessEvent) => void): void {
    this.listener = listener;
    const backlog = this.backlog;
    this.backlog = [];
    for (const event of backlog) listener(event);
  }

  setNonce(nonce: string): void {
    this.parser.setNonce(nonce);
  }

  /** The harness process ended: a `ready` still pending fails, quoting what it printed when `quoteOutput` is set. */
  exited(quoteOutput: boolean): void {
    const early = quoteOutput ? this.earlyOutput.trim() : '';
    this.rejectReady(new SandboxError('start', `the harness exited before it was ready${early ? `: ${early}` : ''}`));
  }

  private dispatch(event: HarnessEvent): void {
    if (event.kind === 'ready') {
      this.resolveReady(event.version);
      return;
    }
    if (event.kind === 'stray' && this.earlyOutput.length < EARLY_OUTPUT_CHARS) {
      this.earlyOutput = (this.earlyOutput + event.text).slice(0, EARLY_OUTPUT_CHARS);
    }
    if (this.listener) this.listener(event);
    else this.backlog.push(event);
  }
}
