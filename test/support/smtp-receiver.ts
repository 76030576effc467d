import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface ReceivedMail {
  /** The SMTP envelope: MAIL FROM and RCPT TO, as the server saw them. */
  envelope: { from: string; to: string[] };
  parsed: ParsedMail;
  raw: Buffer;
}

/** A reply to give instead of accepting a message: an SMTP code (4xx, 5xx) and its text. */
export interface SmtpRefusal {
  code: number;
  text: string;
}

/**
 * A real SMTP server on a loopback port that accepts every message (no TLS, no login), parses it
 * with mailparser and keeps it. stop() closes the port and start() opens the same one again, so a
 * test can take the mail server down and bring it back; refuseNext() answers the next messages with an error.
 */
export class SmtpReceiver {
  readonly messages: ReceivedMail[] = [];
  private readonly refusals: SmtpRefusal[] = [];
  private server: SMTPServer | undefined;

  private constructor(private port: number) {}

  /** Listens on 127.0.0.1 at `port` (0: a free one). */
  static async start(port = 0): Promise<SmtpReceiver> {
    const receiver = new SmtpReceiver(port);
    await receiver.start();
    return receiver;
  }

  /** For SMTP_URL. */
  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.server) return;
    const options: SMTPServerOptions = {
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      // stop() must not wait 30 s for a client that keeps its connection open.
      closeTimeout: 100,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', callback);
        stream.on('end', () => {
          const refusal = this.refusals.shift();
          if (refusal) return callback(Object.assign(new Error(refusal.text), { responseCode: refusal.code }));
          const raw = Buffer.concat(chunks);
          simpleParser(raw).then(
            (parsed) => {
              const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
              this.messages.push({ envelope: { from, to: session.envelope.rcptTo.map((r) => r.address) }, parsed, raw });
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    };
    const server = new SMTPServer(options);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    // Connection errors (a client going away) are the client's business, not the test's.
    server.on('error', () => undefined);
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Closes the port: clients get "connection refused" until start(). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The next `count` messages get this reply after their data instead of being accepted. */
  refuseNext(refusal: SmtpRefusal, count = 1): void {
    for (let i = 0; i < count; i += 1) this.refusals.push(refusal);
  }

  /** The received messages once `predicate` holds for them, or a failure naming what did arrive. */
  async waitFor(predicate: (messages: ReceivedMail[]) => boolean, timeoutMs = 10_000): Promise<ReceivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.messages)) {
      if (Date.now() > deadline) {
        const subjects = this.messages.map((m) => `${m.envelope.to.join(',')}: ${m.parsed.subject ?? ''}`);
        throw new Error(`the SMTP receiver did not get the expected mail within ${timeoutMs} ms; it got ${JSON.stringify(subjects)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.messages;
  }
}
