export type FieldErrors = Record<string, string>;

/** An error whose status, code and message are meant for the client. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, fields?: FieldErrors, code = 'invalid_request') =>
  new AppError(400, code, message, fields);
export const unauthorized = (message = 'Sign in or send a valid API key.') =>
  new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'You are not allowed to do this.', code = 'forbidden') =>
  new AppError(403, code, message);
export const notFound = (message = 'Not found.', code = 'not_found') => new AppError(404, code, message);
export const conflict = (message: string, fields?: FieldErrors, code = 'conflict') =>
  new AppError(409, code, message, fields);
export const validationFailed = (fields: FieldErrors, message = 'Some fields are invalid.') =>
  new AppError(422, 'validation_failed', message, fields);

export interface ErrorBody {
  error: { code: string; message: string; fields?: FieldErrors };
}

export function errorBody(code: string, message: string, fields?: FieldErrors): ErrorBody {
  return { error: fields && Object.keys(fields).length ? { code, message, fields } : { code, message } };
}

/**
 * Recognises a unique-constraint violation from SQLite or PostgreSQL and names its columns.
 * Returns undefined for any other error.
 */
export function uniqueViolationColumns(error: unknown): string[] | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { code, message, detail, constraint } = error as {
    code?: string;
    message?: string;
    detail?: string;
    constraint?: string;
  };
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    // "UNIQUE constraint failed: users.uid, users.mail"
    const list = message?.split(':')[1] ?? '';
    return list
      .split(',')
      .map((column) => column.trim().split('.').pop() ?? '')
      .filter(Boolean);
  }
  if (code === '23505') {
    // "Key (uid)=(alice) already exists." or "Key (lower(mail::text))=…"
    const match = detail?.match(/^Key \((.+?)\)=/);
    if (match?.[1]) return match[1].split(',').map((column) => column.replace(/.*\(|\).*|::.*/g, '').trim());
    return constraint ? [constraint] : [];
  }
  return undefined;
}

export function isForeignKeyViolation(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  // SQLite reports ON DELETE RESTRICT as SQLITE_CONSTRAINT_TRIGGER with the same message.
  return code === '23503' || (!!code?.startsWith('SQLITE_CONSTRAINT') && !!message?.includes('FOREIGN KEY'));
}

/**
 * Runs `attempt` again when it fails on a unique constraint over one of `columns` — the way to allocate
 * the next free number or address without a read-then-write race: the constraint is the judge.
 */
export async function retryOnConflict<T>(
  columns: string[],
  attempt: () => Promise<T>,
  times = 8,
): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const clash = uniqueViolationColumns(error);
      if (!clash || tries >= times || !clash.some((column) => columns.includes(column))) throw error;
    }
  }
}

/** A database that cannot be reached right now (refused, restarting, dropped the connection, locked). */
export class DatabaseUnavailableError extends Error {
  constructor(override readonly cause: unknown) {
    super(`database unavailable: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'DatabaseUnavailableError';
  }
}

// PostgreSQL: admin/crash shutdown, starting up, connection exceptions, too many connections; SQLite: locked.
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300', 'SQLITE_BUSY']);

/** True for an error that says the database is out of reach rather than that a query is wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  // node-postgres reports a connection lost in the middle of a query with these words and no code.
  return (
    typeof message === 'string' &&
    /^Connection terminated|^Client has encountered a connection error/.test(message)
  );
}

/**
 * Runs `attempt` again while the database is unavailable, every `retryMs`, for up to `giveUpMs`: for
 * writes that must not be lost to a short outage (a job's output and outcome).
 */
export async function retryWhileUnavailable<T>(
  attempt: () => Promise<T>,
  { retryMs = 500, giveUpMs = 120_000 }: { retryMs?: number; giveUpMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + giveUpMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() + retryMs > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  }
}
