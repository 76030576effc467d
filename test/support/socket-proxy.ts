import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * A unix-socket proxy in front of the real Docker socket that a test can cut and restore, to
 * show what the service does when its engine goes away and comes back.
 */
export class SocketProxy {
  readonly path = path.join(os.tmpdir(), `docker-proxy-${randomBytes(4).toString('hex')}.sock`);
  private server: net.Server | undefined;
  private readonly open = new Set<net.Socket>();

  constructor(private readonly target = '/var/run/docker.sock') {}

  async up(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      for (const socket of [client, upstream]) {
        this.open.add(socket);
        socket.on('close', () => this.open.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server?.listen(this.path, resolve));
  }

  /** Closes the listener and every connection through it, as an engine restart does. */
  async down(): Promise<void> {
    for (const socket of this.open) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}
