import type { TerminalSize } from '../providers/terminal.ts';

/**
 * The terminal WebSocket's protocol. Binary frames carry the terminal's bytes both ways; text frames
 * carry JSON control messages: from the browser `{type:'resize',cols,rows}` and `{type:'ping'}` (answered
 * `{type:'pong'}`); from the server `{type:'exit',reason}` just before it closes the socket.
 */
export const TERMINAL_CLOSE = {
  /** The shell ended. */
  exited: 1000,
  /** The caller's access ended (suspended, deleted, signed out, container no longer theirs). */
  revoked: 4403,
  /** No input for the idle timeout. */
  idle: 4408,
  /** The user has the most terminals open already. */
  tooMany: 4429,
  /** The node refused the shell or could not be reached. */
  nodeError: 4502,
} as const;

export const TERMINAL_PROTOCOL_SUMMARY =
  'WebSocket (upgrade): an interactive shell in the container; owner and administrators only, never ' +
  'collaborators. Binary frames are the terminal bytes both ways; text frames are JSON control messages: ' +
  "`{type:'resize',cols,rows}` and `{type:'ping'}` (answered `{type:'pong'}`) from the client, " +
  "`{type:'exit',reason}` from the server just before it closes. Close codes: 1000 the shell ended, " +
  '4403 access ended, 4408 idle timeout, 4429 too many terminals open, 4502 the node refused or failed. ' +
  'A browser must send an Origin of this site.';

export const TERMINAL_SIZE_LIMITS = { cols: [1, 1000], rows: [1, 1000] } as const;

export type ControlMessage = { type: 'resize'; size: TerminalSize } | { type: 'ping' };

const inRange = (value: unknown, [min, max]: readonly [number, number]) =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/** A control message from the browser, or undefined for anything else (ignored). */
export function parseControl(text: string): ControlMessage | undefined {
  let message: { type?: unknown; cols?: unknown; rows?: unknown };
  try {
    message = JSON.parse(text) as typeof message;
  } catch {
    return undefined;
  }
  if (message?.type === 'ping') return { type: 'ping' };
  if (
    message?.type === 'resize' &&
    inRange(message.cols, TERMINAL_SIZE_LIMITS.cols) &&
    inRange(message.rows, TERMINAL_SIZE_LIMITS.rows)
  )
    return { type: 'resize', size: { cols: message.cols as number, rows: message.rows as number } };
  return undefined;
}
