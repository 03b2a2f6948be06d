import { engineCall } from './engine-api.ts';

/** An engine the same calls go to: a real one or the fake, on its unix socket, at one API version. */
export interface Target {
  socket: string;
  version: string;
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** One call of a sequence; `{alias}` in the path is the id saved under that alias. */
export interface Step {
  what: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** JSON (or a string sent as it is), or made from the replies kept so far. */
  body?: unknown;
  makeBody?: (kept: Map<string, unknown>) => unknown;
  /** Saves the answer's `Id` under this alias. */
  save?: string;
  /** Keeps the answer's body under this name for a later `makeBody`. */
  keep?: string;
  /** The fields the provider reads of a success (an error's `message` is always read). */
  read?: (body: unknown, headers: Reply['headers']) => unknown;
}

/** What the provider sees of one answer. */
export interface Seen {
  what: string;
  status: number;
  fields: unknown;
}

/**
 * The provider reads an error's `message`, or the body when it is plain text (Podman's "Not Found");
 * the text differs between engines and versions.
 */
const errorFields = (body: unknown) => ({
  message:
    (typeof body === 'string' && body.trim()) ||
    typeof (body as { message?: unknown } | null)?.message === 'string'
      ? 'a message'
      : body,
});

/**
 * Sends the steps in order and returns what the provider reads of each answer, with every saved id
 * replaced by its alias (ids differ between engines; where they appear, they must match the alias).
 */
export async function runSequence(target: Target, steps: Step[]): Promise<{ seen: Seen[]; ids: string[] }> {
  const ids = new Map<string, string>();
  const kept = new Map<string, unknown>();
  const seen: Seen[] = [];
  for (const step of steps) {
    const path = step.path.replace(/\{(\w+)\}/g, (_, alias: string) => ids.get(alias) ?? `missing-${alias}`);
    const body = step.makeBody ? step.makeBody(kept) : step.body;
    const reply = await engineCall(target.socket, step.method, `/v${target.version}${path}`, body);
    const ok = reply.status < 300 || reply.status === 304;
    if (ok && step.save) ids.set(step.save, (reply.body as { Id: string }).Id);
    if (ok && step.keep) kept.set(step.keep, reply.body);
    seen.push({
      what: step.what,
      status: reply.status,
      fields: ok ? (step.read?.(reply.body, reply.headers) ?? null) : errorFields(reply.body),
    });
  }
  let text = JSON.stringify(seen);
  for (const [alias, id] of ids) text = text.replaceAll(id, `<${alias}>`);
  return { seen: JSON.parse(text) as Seen[], ids: [...ids.values()] };
}
