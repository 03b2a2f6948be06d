import type { Duplex } from 'node:stream';
import type { TerminalSession, TerminalSize } from '../terminal.ts';
import type { EngineClient } from './engine-client.ts';

/** Bash where the image has it, else sh. */
const SHELL = ['/bin/sh', '-c', 'command -v bash >/dev/null && exec bash || exec sh'];

/**
 * A shell through the exec API: create with a TTY, start with the connection hijacked (the raw TTY
 * stream both ways, not multiplexed since Tty is set), resize through `/exec/{id}/resize`. The engine
 * has no call that ends an exec: closing the stream closes the shell's input, and the shell ends on it.
 */
class EngineTerminal implements TerminalSession {
  readonly closed: Promise<{ reason: string }>;

  constructor(
    private readonly client: EngineClient,
    private readonly execId: string,
    private readonly stream: Duplex,
  ) {
    this.closed = new Promise((resolve) => {
      stream.once('error', (error) =>
        resolve({ reason: `the connection to the node failed: ${error.message}` }),
      );
      stream.once('close', () => resolve({ reason: 'the shell exited' }));
    });
  }

  write(data: Buffer) {
    if (!this.stream.destroyed) this.stream.write(data);
  }

  onData(listener: (chunk: Buffer) => void) {
    this.stream.on('data', listener);
  }

  async resize({ cols, rows }: TerminalSize) {
    await this.client.json({
      method: 'POST',
      path: `/exec/${encodeURIComponent(this.execId)}/resize`,
      query: { h: rows, w: cols },
    });
  }

  close() {
    this.stream.destroy();
  }
}

export async function openEngineTerminal(
  client: EngineClient,
  containerId: string,
  size: TerminalSize,
  signal: AbortSignal,
): Promise<TerminalSession> {
  const { body } = await client.json<{ Id: string }>({
    method: 'POST',
    path: `/containers/${encodeURIComponent(containerId)}/exec`,
    body: {
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: true,
      Env: ['TERM=xterm-256color'],
      Cmd: SHELL,
    },
    signal,
  });
  const execId = body!.Id;
  const stream = await client.hijack({
    path: `/exec/${encodeURIComponent(execId)}/start`,
    body: { Detach: false, Tty: true },
    signal,
  });
  const session = new EngineTerminal(client, execId, stream);
  // The exec must run before it can be resized; a shell that has already ended is told by `closed`.
  await session.resize(size).catch(() => undefined);
  return session;
}
