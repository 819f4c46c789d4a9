/**
 * The service's outgoing mail: the console's password-reset and address-confirmation links. Over SMTP when
 * `SMTP_URL` is set (nodemailer); otherwise each message is written to `DATA_DIR/outbox/` as an .eml file, with a
 * plain-text .txt of it beside, and a log line says so (development and the demo). The log line names the recipient, the subject and the file, never the
 * body: the links in it are credentials.
 *
 * Sending does not hold up the page that asked for it (an answer that came sooner when no account exists would tell
 * which addresses have one): `send` returns at once, and `close()` waits for what is under way.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface MailSettings {
  /** smtp:// or smtps:// with the server's user and password; null: the outbox. */
  smtpUrl: string | null;
  from: string;
  dataDir: string;
}

export class Mailer {
  private readonly transport: Transporter;
  private readonly outbox: string | null;
  private readonly underWay = new Set<Promise<void>>();
  private sequence = 0;

  constructor(
    private readonly settings: MailSettings,
    private readonly log: FastifyBaseLogger,
  ) {
    this.outbox = settings.smtpUrl ? null : path.join(settings.dataDir, 'outbox');
    this.transport = settings.smtpUrl
      ? nodemailer.createTransport(settings.smtpUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  /** Sends in the background; a failure is logged (the recipient asks again). */
  send(mail: Mail): void {
    const sending = this.deliver(mail)
      .catch((err: unknown) => {
        this.log.error(
          { to: mail.to, subject: mail.subject, reason: err instanceof Error ? err.message : String(err) },
          'mail not sent',
        );
      })
      .finally(() => {
        this.underWay.delete(sending);
      });
    this.underWay.add(sending);
  }

  /** Waits for the mail under way, then closes the SMTP connections. */
  async close(): Promise<void> {
    await Promise.all([...this.underWay]);
    this.transport.close();
  }

  private async deliver(mail: Mail): Promise<void> {
    const info = (await this.transport.sendMail({
      from: this.settings.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
    })) as { message?: Buffer; messageId?: string };
    if (!this.outbox) {
      this.log.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'mail sent');
      return;
    }
    fs.mkdirSync(this.outbox, { recursive: true, mode: 0o700 });
    const file = path.join(this.outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${++this.sequence}.eml`);
    fs.writeFileSync(file, info.message ?? Buffer.alloc(0), { mode: 0o600 });
    // Beside it the same message as plain UTF-8 (the .eml's body is quoted-printable or base64): `cat` shows its link
    // whole, ready to copy.
    const readable = `From: ${this.settings.from}\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n`;
    fs.writeFileSync(file.replace(/\.eml$/, '.txt'), readable, { mode: 0o600 });
    this.log.info(
      { to: mail.to, subject: mail.subject, file },
      'mail written to the outbox (no SMTP_URL; the .txt beside it is readable)',
    );
  }
}
