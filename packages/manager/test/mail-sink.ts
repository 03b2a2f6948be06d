import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  from: string;
  raw: string;
  /** Body with quoted-printable soft breaks and escapes undone. */
  text: string;
}

const decodeQuotedPrintable = (value: string) =>
  value
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * A real SMTP server on loopback that keeps every message it receives. With `held`, it accepts
 * connections but answers no MAIL FROM until `release()` — a mail server that is slow to answer. With
 * `acceptLogins` it offers AUTH (PLAIN, LOGIN, over plain text) and keeps every username and password
 * it is sent.
 */
export async function startMailSink(options: { held?: boolean; acceptLogins?: boolean } = {}) {
  const messages: CapturedMail[] = [];
  const logins: Array<{ username?: string | undefined; password?: string | null | undefined }> = [];
  const waiters: (() => void)[] = [];
  let release = () => {};
  const released = options.held ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: options.acceptLogins ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, callback) {
      logins.push({ username: auth.username, password: auth.password });
      callback(null, { user: auth.username ?? 'anonymous' });
    },
    logger: false,
    onMailFrom(_address, _session, callback) {
      void released.then(() => callback());
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          raw,
          text: decodeQuotedPrintable(raw),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        });
        waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    release: () => release(),
    logins,
    /** Resolves with the next message for `to` (already received or still to come). */
    async next(to: string, timeoutMs = 5000): Promise<CapturedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find((message) => message.to.includes(to));
        if (found) {
          messages.splice(messages.indexOf(found), 1);
          return found;
        }
        if (Date.now() > deadline) throw new Error(`no mail for ${to}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => {
      release();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The first link in a message that starts with `prefix`. */
export function linkIn(mail: CapturedMail, prefix: string): string {
  const match = mail.text.match(new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\S+`));
  if (!match) throw new Error(`no link starting with ${prefix} in:\n${mail.text}`);
  return match[0];
}
