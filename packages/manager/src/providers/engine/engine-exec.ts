import { pause } from '../pause.ts';
import { asTransportError, readText } from '../http.ts';
import type { ExecSpec, OperationContext } from '../types.ts';
import { EngineApiError, type EngineClient } from './engine-client.ts';

/** A longer line is logged in pieces of this size (an output row is not unbounded). */
const MAX_LINE_CHARS = 16 * 1024;
/** Podman may report the exec as running for a moment after its stream has closed. */
const EXIT_POLLS = 50;
const EXIT_POLL_MS = 100;

interface ExecInspect {
  Running: boolean;
  ExitCode: number | null;
}

/**
 * Docker's exec API without a terminal: create, start attached (the answer is the multiplexed stream
 * of stdout and stderr: frames of an 8-byte header, stream type and big-endian length, then the
 * bytes), then inspect for the exit code. Each stream's lines are logged as they complete.
 */
export async function execIn(
  client: EngineClient,
  containerId: string,
  spec: ExecSpec,
  ctx: OperationContext,
): Promise<{ exitCode: number }> {
  const { body: created } = await client.json<{ Id: string }>({
    method: 'POST',
    path: `/containers/${containerId}/exec`,
    body: { AttachStdin: false, AttachStdout: true, AttachStderr: true, Tty: false, Cmd: spec.command },
    signal: ctx.signal,
  });
  const execId = created!.Id;
  const what = `POST /exec/${execId.slice(0, 12)}/start`;
  const response = await client.send({
    method: 'POST',
    path: `/exec/${execId}/start`,
    body: { Detach: false, Tty: false },
    signal: ctx.signal,
    timeoutMs: spec.timeoutMs,
  });
  if (response.status !== 200) {
    const text = await readText(response, what, ctx.signal);
    throw new EngineApiError(`${what}: ${text.trim() || `HTTP ${response.status}`}`, response.status);
  }
  const streams = [new LineBuffer(), new LineBuffer(), new LineBuffer()];
  try {
    for await (const { stream, bytes } of frames((response.body ?? []) as AsyncIterable<Uint8Array>)) {
      for (const line of streams[stream]?.push(bytes) ?? []) await ctx.log(line);
    }
  } catch (error) {
    throw asTransportError(error, what, ctx.signal);
  }
  for (const buffer of streams) for (const line of buffer.end()) await ctx.log(line);
  return { exitCode: await exitCodeOf(client, execId, ctx.signal) };
}

async function exitCodeOf(client: EngineClient, execId: string, signal: AbortSignal): Promise<number> {
  for (let poll = 0; ; poll++) {
    const { body } = await client.json<ExecInspect>({ method: 'GET', path: `/exec/${execId}/json`, signal });
    if (body && !body.Running && body.ExitCode !== null) return body.ExitCode;
    if (poll >= EXIT_POLLS) throw new EngineApiError(`exec ${execId.slice(0, 12)} reported no exit code`);
    await pause(EXIT_POLL_MS, signal);
  }
}

/** The frames of a multiplexed exec stream, however the chunks cut them. */
export async function* frames(chunks: AsyncIterable<Uint8Array>) {
  let pending = Buffer.alloc(0);
  for await (const chunk of chunks) {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 8) {
      const size = pending.readUInt32BE(4);
      if (pending.length < 8 + size) break;
      yield { stream: pending[0]!, bytes: pending.subarray(8, 8 + size) };
      pending = pending.subarray(8 + size);
    }
  }
}

/** One stream's bytes into whole lines (UTF-8 kept across frame boundaries). */
class LineBuffer {
  private readonly decoder = new TextDecoder();
  private pending = '';

  push(bytes: Uint8Array): string[] {
    this.pending += this.decoder.decode(bytes, { stream: true });
    const lines = this.pending.split(/\r?\n/);
    this.pending = lines.pop() ?? '';
    while (this.pending.length > MAX_LINE_CHARS) {
      lines.push(this.pending.slice(0, MAX_LINE_CHARS));
      this.pending = this.pending.slice(MAX_LINE_CHARS);
    }
    return lines.flatMap(split);
  }

  end(): string[] {
    const rest = this.pending + this.decoder.decode();
    this.pending = '';
    return rest ? split(rest) : [];
  }
}

const split = (line: string): string[] =>
  line.length <= MAX_LINE_CHARS
    ? [line]
    : Array.from({ length: Math.ceil(line.length / MAX_LINE_CHARS) }, (_, index) =>
        line.slice(index * MAX_LINE_CHARS, (index + 1) * MAX_LINE_CHARS),
      );
