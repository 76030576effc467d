import { z } from 'zod';

/** An email as stored in an outbox payload (kind 'email'); the platform's mail handler sends it with nodemailer. */
export const mailMessageSchema = z.object({
  to: z.string().min(1),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  /** An iCalendar object (RFC 5545), sent as a text/calendar part and as an .ics attachment. */
  calendar: z.object({ filename: z.string().min(1), method: z.enum(['REQUEST', 'CANCEL']), content: z.string().min(1) }).optional(),
});

export type MailMessage = z.infer<typeof mailMessageSchema>;
