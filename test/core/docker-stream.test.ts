import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { DockerStreamDemux } from '../../src/core/sandbox/docker-stream.js';

function payload(type: number, bytes: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header[0] = type;
  header.writeUInt32BE(bytes.length, 4);
  return Buffer.concat([header, bytes]);
}

/** Cuts `stream` into chunks of random sizes (1 byte up to `largest`), as a socket may deliver it. */
function chunks(stream: Buffer, largest: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < stream.length;) {
    const size = 1 + Math.floor(Math.random() * largest);
    out.push(stream.subarray(at, at + size));
    at += size;
  }
  return out;
}

function demuxed(pieces: Buffer[]): { stdout: Buffer; stderr: Buffer } {
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const demux = new DockerStreamDemux(
    (chunk) => stdout.push(chunk),
    (chunk) => stderr.push(chunk),
  );
  for (const piece of pieces) demux.push(piece);
  return { stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) };
}

/** What docker-modem's demuxStream, which DockerStreamDemux replaces, makes of the same chunks. */
async function modemDemuxed(pieces: Buffer[]): Promise<{ stdout: Buffer; stderr: Buffer }> {
  const source = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const collected = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  stdout.on('data', (chunk: Buffer) => collected.stdout.push(chunk));
  stderr.on('data', (chunk: Buffer) => collected.stderr.push(chunk));
  new Docker().modem.demuxStream(source, stdout, stderr);
  for (const piece of pieces) source.write(piece);
  await new Promise((resolve) => setImmediate(resolve));
  return { stdout: Buffer.concat(collected.stdout), stderr: Buffer.concat(collected.stderr) };
}

describe('the Docker attach stream demultiplexer', () => {
  const streamOf = (large: number) =>
    Buffer.concat([
      payload(1, Buffer.from('\x1eready 1\n')),
      payload(2, Buffer.from('a warning\n')),
      payload(1, randomBytes(large)),
      payload(1, Buffer.alloc(0)),
      payload(0, Buffer.from('stdin-typed')),
      payload(2, randomBytes(large / 4)),
      payload(1, Buffer.from('last')),
    ]);

  // (docker-modem copies its whole buffer at every chunk: tiny chunks only with small payloads)
  it.each([
    [1, 2_000],
    [7, 2_000],
    [9, 2_000],
    [4096, 300_000],
    [100_000, 300_000],
    [Infinity, 300_000],
  ])('splits stdout from stderr as docker-modem does, the stream cut into chunks of up to %s bytes', async (largest, large) => {
    const stream = streamOf(large);
    const pieces = chunks(stream, Math.min(largest, stream.length));
    const ours = demuxed(pieces);
    const theirs = await modemDemuxed(pieces);
    expect(ours.stdout.equals(theirs.stdout), 'stdout').toBe(true);
    expect(ours.stderr.equals(theirs.stderr), 'stderr').toBe(true);
    expect(ours.stdout.length + ours.stderr.length).toBe(stream.length - 7 * 8);
  });

  it('passes a stream that is not multiplexed on to stdout as it is, from its first unknown header', async () => {
    const raw = Buffer.concat([payload(1, Buffer.from('ok\n')), Buffer.from('plain text, no headers at all\n')]);
    const pieces = chunks(raw, 5);
    const ours = demuxed(pieces);
    const theirs = await modemDemuxed(pieces);
    expect(ours.stdout.toString()).toBe('ok\nplain text, no headers at all\n');
    expect(ours.stdout.equals(theirs.stdout)).toBe(true);
    expect(ours.stderr.length).toBe(0);
  });
});
