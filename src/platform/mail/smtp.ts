import type { Transporter } from 'nodemailer';
import { z } from 'zod';
import { DeliveryFailure, type ClaimedMessage, type OutboxHandler } from '../outbox/delivery.js';
import { mailMessageSchema } from './message.js';

/** What nodemailer attaches to its errors (see its NodemailerError). */
interface SmtpError {
  code?: string;
  responseCode?: number;
  permanent?: boolean;
}

export interface Mailer {
  send: OutboxHandler;
  close(): void;
}

/**
 * 5xx replies (but 503, nodemailer's `permanent`) refuse the message for good: permanent. 4xx
 * replies, refused connections and timeouts are retried. A refused login (EAUTH, 535) is retried
 * too: it is the operator's configuration to fix, and the invites should go once it is.
 */
function smtpFailure(error: unknown): DeliveryFailure {
  const { code, responseCode, permanent } = error as SmtpError;
  const text = error instanceof Error ? error.message : String(error);
  return new DeliveryFailure(text, { statusCode: responseCode, permanent: permanent === true && code !== 'EAUTH' });
}

/** The domain of MAIL_FROM's address, for Message-IDs. */
function domainOf(from: string): string {
  return /@([^\s>]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
}

/** The reply code the server accepted the message with (`250 OK: queued as …`). */
function replyCode(response: string | undefined): number | undefined {
  const code = /^(\d{3})/.exec(response ?? '')?.[1];
  return code ? Number(code) : undefined;
}

/**
 * Sends outbox emails through the SMTP server of SMTP_URL, from MAIL_FROM. The Message-ID is the
 * outbox message's id, the same on every attempt, so that a copy sent twice after a crash can be recognised.
 */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  // nodemailer costs about 15 MB of RSS: loaded with the first email, not at start.
  let loading: Promise<Transporter> | undefined;
  const transportOf = () => (loading ??= import('nodemailer').then(({ createTransport }) => createTransport(smtpUrl, { from })));
  const messageIdDomain = domainOf(from);
  const send = async (message: ClaimedMessage, signal: AbortSignal) => {
    const parsed = mailMessageSchema.safeParse(message.payload);
    if (!parsed.success) throw new DeliveryFailure(`not an email payload: ${z.prettifyError(parsed.error)}`, { permanent: true });
    const { to, subject, text, html, calendar } = parsed.data;
    try {
      const info = await (
        await transportOf()
      ).sendMail({
        to,
        subject,
        text,
        html,
        messageId: `<${message.id}@${messageIdDomain}>`,
        ...(calendar ? { icalEvent: { filename: calendar.filename, method: calendar.method, content: calendar.content } } : {}),
        signal,
      });
      return { statusCode: replyCode(info.response) };
    } catch (error) {
      throw smtpFailure(error);
    }
  };
  return { send, close: () => void loading?.then((transport) => transport.close()) };
}
