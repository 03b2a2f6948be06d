/** A terminal's size in character cells. */
export interface TerminalSize {
  cols: number;
  rows: number;
}

/** An interactive shell in a container, as a provider opens it. */
export interface TerminalSession {
  /** The user's keystrokes (UTF-8 bytes, as typed). */
  write(data: Buffer): void;
  resize(size: TerminalSize): Promise<void>;
  /** Every chunk the shell writes, in order, from the moment the session is returned. */
  onData(listener: (chunk: Buffer) => void): void;
  /** Settles when the shell ended or the connection to the node dropped (never rejects). */
  readonly closed: Promise<{ reason: string }>;
  /** Ends the session (kills the shell where the node allows it). Idempotent. */
  close(): void;
}
