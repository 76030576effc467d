/** The header in front of each payload of a multiplexed attach stream: stream type, three zero bytes, length (big-endian). */
const HEADER_BYTES = 8;
const STDOUT = 1;
/** Stream types are 0 (stdin), 1 (stdout) and 2 (stderr); a larger one means the stream is not multiplexed. */
const LAST_STREAM_TYPE = 2;

/**
 * Splits the Docker engine's multiplexed attach stream (a container without a TTY) into stdout and
 * stderr, as docker-modem's demuxStream does, without copying: each payload is passed on as views
 * of the chunks it arrived in, and only a header cut by a chunk's end is held. demuxStream copies
 * the rest of its buffer again at every header and payload (with Buffer.from), which in a result
 * flood was most of the event loop's work per byte and the allocations behind its collections.
 */
export class DockerStreamDemux {
  private readonly header = Buffer.alloc(HEADER_BYTES);
  private headerBytes = 0;
  /** Bytes of the current payload still to come, and where they go. */
  private remaining = 0;
  private toStdout = true;
  /** A header of an unknown stream type was met: the rest goes to stdout as it is (as demuxStream does). */
  private raw = false;

  constructor(
    private readonly stdout: (chunk: Buffer) => void,
    private readonly stderr: (chunk: Buffer) => void,
  ) {}

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.raw) {
        this.stdout(chunk.subarray(at));
        return;
      }
      if (this.remaining > 0) {
        const end = Math.min(chunk.length, at + this.remaining);
        (this.toStdout ? this.stdout : this.stderr)(chunk.subarray(at, end));
        this.remaining -= end - at;
        at = end;
        continue;
      }
      const take = Math.min(HEADER_BYTES - this.headerBytes, chunk.length - at);
      chunk.copy(this.header, this.headerBytes, at, at + take);
      this.headerBytes += take;
      at += take;
      if (this.headerBytes < HEADER_BYTES) return;
      this.headerBytes = 0;
      const type = this.header[0];
      if (type > LAST_STREAM_TYPE) {
        this.raw = true;
        this.stdout(Buffer.from(this.header));
        continue;
      }
      this.toStdout = type === STDOUT;
      this.remaining = this.header.readUInt32BE(4);
    }
  }
}
