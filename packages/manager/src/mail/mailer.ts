import type { FastifyBaseLogger } from 'fastify';
import type { SettingsService } from '../settings/settings-service.ts';
import { fail } from '../errors/catalogue.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends through the SMTP URL and no-reply address stored in the settings, read at send time. */
export class Mailer {
  constructor(
    private readonly settings: SettingsService,
    private readonly log: FastifyBaseLogger,
  ) {}

  async configured(): Promise<boolean> {
    const { smtpUrl, smtpNoreplyAddress } = await this.settings.get();
    return Boolean(smtpUrl && smtpNoreplyAddress);
  }

  /** Throws 409 smtp_not_configured without SMTP settings, 502 smtp_error when the server refuses. */
  async send(mail: Mail): Promise<void> {
    const { smtpUrl, smtpNoreplyAddress } = await this.settings.get();
    if (!smtpUrl || !smtpNoreplyAddress) {
      throw fail(
        'smtp_not_configured',
        'E-mail is not set up: set smtpUrl and smtpNoreplyAddress in the settings.',
      );
    }
    // Loaded on the first mail: most manager processes never send one.
    const { default: nodemailer } = await import('nodemailer');
    const transport = nodemailer.createTransport(smtpUrl);
    try {
      await transport.sendMail({
        from: smtpNoreplyAddress,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
      });
    } catch (error) {
      this.log.warn({ err: error }, 'SMTP server refused the message');
      throw fail('smtp_error', 'The mail server refused the message. Check the SMTP settings.');
    } finally {
      transport.close();
    }
    this.log.info({ subject: mail.subject }, 'e-mail sent');
  }
}
