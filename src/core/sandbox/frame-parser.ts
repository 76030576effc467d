import { StringDecoder } from 'node:string_decoder';
import { parse as parseLossless } from 'lossless-json';

/** What the harness's stdout carries: the ready line, frames, and stray output (see docs/harness-protocol.md). */
export type HarnessEvent =
  | { kind: 'ready'; runtime: string }
  | { kind: 'frame'; frame: Record<string, unknown> }
  | { kind: 'stray'; text: string };

const MARK = '\x1e';
/** A frame larger than this is not one the harness could have written (values are capped by the body limit). */
const MAX_PENDING_CHARS = 64 * 1024 * 1024;

/**
 * Splits the harness's stdout into events. Frames need the job's nonce, so user code that prints
 * a frame-shaped line without it only produces stray output.
 */
export class FrameParser {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private nonce: string | undefined;
  private scanned = 0;

  constructor(private readonly emit: (event: HarnessEvent) => void) {}

  setNonce(nonce: string): void { this.nonce = nonce; }

  push(chunk: Buffer): void {
    this.pending += this.decoder.write(chunk);
    this.drain();
  }

  end(): void {
    this.pending += this.decoder.end();
    if (this.pending) this.emit({ kind: 'stray', text: this.pending });
    this.pending = '';
  }

  private drain(): void {
    for (;;) {
      const mark = this.pending.indexOf(MARK);
      if (mark < 0) {
        if (this.pending) this.emit({ kind: 'stray', text: this.pending });
        this.pending = '';
        this.scanned = 0;
        return;
      }
      if (mark > 0) {
        this.emit({ kind: 'stray', text: this.pending.slice(0, mark) });
        this.pending = this.pending.slice(mark);
        this.scanned = 0;
      }
      // Resume the search where the last chunk ended, so a huge line costs linear time.
      const from = Math.max(1, this.scanned);
      const newline = this.pending.indexOf('\n', from);
      const nextMark = this.pending.indexOf(MARK, from);
      if (nextMark > 0 && (newline < 0 || nextMark < newline)) {
        // A mark with no newline before the next mark cannot start a frame: it is stray output.
        this.emit({ kind: 'stray', text: this.pending.slice(0, nextMark) });
        this.pending = this.pending.slice(nextMark);
        this.scanned = 0;
        continue;
      }
      if (newline < 0) {
        this.scanned = this.pending.length;
        if (this.pending.length > MAX_PENDING_CHARS) {
          this.emit({ kind: 'stray', text: this.pending });
          this.pending = '';
          this.scanned = 0;
        }
        return;
      }
      const line = this.pending.slice(1, newline);
      this.pending = this.pending.slice(newline + 1);
      this.scanned = 0;
      this.emit(this.classify(line));
    }
  }

  private classify(line: string): HarnessEvent {
    if (this.nonce === undefined && line.startsWith('ready ')) return { kind: 'ready', runtime: line.slice(6) };
    if (this.nonce !== undefined && line.startsWith(`${this.nonce} `)) {
      try {
        const frame = parseLossless(line.slice(this.nonce.length + 1));
        if (frame && typeof frame === 'object' && !Array.isArray(frame)) return { kind: 'frame', frame: frame as Record<string, unknown> };
      } catch {
        // a malformed frame line is reported as stray output below
      }
    }
    return { kind: 'stray', text: `${MARK}${line}\n` };
  }
}
