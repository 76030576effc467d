import net from 'node:net';

type Mode = { kind: 'forward' } | { kind: 'hang' } | { kind: 'answer'; raw: string };

/**
 * A TCP proxy between an api node and a runner node that a test can turn into a fault: forward
 * (the real runner node), hang (accept and never answer, a runner node that stalls), answer (one
 * raw HTTP answer instead of the runner node's, then forward again), or down (nothing listens).
 */
export class FaultProxy {
  private server: net.Server | undefined;
  private mode: Mode = { kind: 'forward' };
  private readonly open = new Set<net.Socket>();
  /** Connections accepted since the last `reset`, and how many of them the peer closed while hung. */
  connections = 0;
  closedWhileHung = 0;
  port = 0;

  constructor(private readonly target: URL) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    this.server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  /** Closes the listener and every connection: connections are refused until `up`. */
  async down(): Promise<void> {
    for (const socket of this.open) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }

  /** Switches mode for new connections; open ones are closed, so that no kept-alive connection bypasses the fault. */
  async set(mode: Mode): Promise<void> {
    for (const socket of this.open) socket.destroy();
    this.mode = mode;
    this.connections = 0;
    this.closedWhileHung = 0;
    // the api node sees its kept-alive connections closed before the test sends again
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  private accept(client: net.Socket): void {
    this.connections += 1;
    this.open.add(client);
    client.on('close', () => this.open.delete(client));
    client.on('error', () => undefined);
    const mode = this.mode;
    if (mode.kind === 'hang') {
      client.resume();
      client.on('close', () => (this.closedWhileHung += 1));
      return;
    }
    if (mode.kind === 'answer') {
      this.mode = { kind: 'forward' };
      client.once('data', () => client.end(mode.raw));
      return;
    }
    const upstream = net.connect(Number(this.target.port), this.target.hostname);
    this.open.add(upstream);
    upstream.on('close', () => this.open.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  }
}
