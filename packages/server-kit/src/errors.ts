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

// The base catalogue's generic errors; a service's own codes go through its catalogue (useCatalogue).
export const badRequest = (message: string, fields?: FieldErrors) =>
  new AppError(400, 'invalid_request', message, fields);
export const unauthorized = (message = 'Sign in or send a valid API key.') =>
  new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'You are not allowed to do this.') =>
  new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found.') => new AppError(404, 'not_found', message);
export const conflict = (message: string, fields?: FieldErrors) =>
  new AppError(409, 'conflict', message, fields);
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

// PostgreSQL: admin/crash shutdown, starting up or shutting down (57P0x), too many connections; SQLite: locked.
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300', 'SQLITE_BUSY']);
// PostgreSQL's class 08: connection exceptions.
const CONNECTION_EXCEPTION = /^08[0-9A-Z]{3}$/;
// node-postgres's words, with no code, for a connection that is gone: lost in the middle of a query, or
// used again after it was lost or closed (the ROLLBACK of a transaction whose connection dropped).
const CONNECTION_GONE =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable)/;
// A socket's own errors: the server closed or reset the connection, or cannot be reached.
const SOCKET_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * True for an error that says the database is out of reach rather than that a query is wrong: also when
 * it is the `cause` of the error at hand, or every error an AggregateError gathers. A bare socket error
 * counts only once the database client has said it is its own (see isLostDatabaseConnection): another
 * socket's error (an outbound call's) is not a database outage.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return outage(error, false, 0);
}

/**
 * isDatabaseUnavailable for an error the database client raised, where a socket error (ECONNRESET, EPIPE,
 * ECONNREFUSED…) can only be the database connection's.
 */
export function isLostDatabaseConnection(error: unknown): boolean {
  return outage(error, true, 0);
}

function outage(error: unknown, fromDatabase: boolean, depth: number): boolean {
  if (!error || typeof error !== 'object' || depth > 8) return false;
  if (error instanceof DatabaseUnavailableError) return true;
  if (error instanceof AggregateError && error.errors.length) {
    return error.errors.every((inner) => outage(inner, fromDatabase, depth + 1));
  }
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string') {
    if (UNAVAILABLE_CODES.has(code) || CONNECTION_EXCEPTION.test(code)) return true;
    if (fromDatabase && SOCKET_CODES.has(code)) return true;
  }
  if (typeof message === 'string' && CONNECTION_GONE.test(message)) return true;
  return outage(cause, fromDatabase, depth + 1);
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
