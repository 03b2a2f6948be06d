import { expect } from 'vitest';
import type { PrivatePostgres } from './private-postgres.ts';

export type OutagePhase = 'before' | 'down' | 'restarting' | 'after';

export interface OutageAnswer {
  /** Which of the drill's `load` functions sent the request (its index). */
  load: number;
  phase: OutagePhase;
  /** The phase its answer came in: on a loaded machine one sent just before the stop is answered after it. */
  answeredIn: OutagePhase;
  status: number;
  code?: string;
}

export interface OutageReport {
  answers: OutageAnswer[];
  /** Neither a success nor a 503 `service_unavailable` in the envelope. */
  unexpected: OutageAnswer[];
  /** 503 answers while the database was down: proof the outage was seen. */
  refusedWhileDown: number;
  /** Failures once the service had answered again after the restart. */
  failedAfter: OutageAnswer[];
  /** The statuses of the last load (when it polls the readiness probe), by phase. */
  readiness: Record<OutagePhase, number[]>;
}

export interface OutageDrillOptions {
  /** Requests sent over and over, one loop each, for the whole drill. */
  load: (() => Promise<{ status: number; body?: { error?: { code?: string } } }>)[];
  /** Resolves when the database may go down (work under way). */
  ready: () => Promise<void>;
  downMs?: number;
  /** How long the load goes on once a request succeeded again after the restart. */
  afterMs?: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stops `postgres` under load and starts it again, recording every answer with the phase its request
 * was sent in: the services must answer 503 in the envelope meanwhile and recover by themselves.
 */
export async function outageDrill(
  postgres: PrivatePostgres,
  options: OutageDrillOptions,
): Promise<OutageReport> {
  const answers: OutageAnswer[] = [];
  let phase: OutagePhase = 'before';
  let loading = true;
  // Each load's latest status: the drill counts as recovered once every load has succeeded again.
  const latest = options.load.map(() => 500);
  const loops = options.load.map(async (send, load) => {
    while (loading) {
      // The phase a request was sent in: one sent while the database was still coming back may be
      // answered 503 after another load already got through.
      const sentIn = phase;
      const response = await send();
      latest[load] = response.status;
      answers.push({
        load,
        phase: sentIn,
        answeredIn: phase,
        status: response.status,
        ...(response.body?.error?.code ? { code: response.body.error.code } : {}),
      });
    }
  });
  try {
    await options.ready();
    phase = 'down';
    await postgres.stop();
    await pause(options.downMs ?? 3000);
    phase = 'restarting';
    await postgres.start();
    const deadline = Date.now() + 20_000;
    latest.fill(500);
    while (latest.some((status) => status >= 300) && Date.now() < deadline) await pause(50);
    phase = 'after';
    await pause(options.afterMs ?? 1500);
  } finally {
    loading = false;
    await Promise.all(loops);
  }
  return {
    answers,
    readiness: readinessIn(answers),
    unexpected: answers.filter(
      (answer) => !(answer.status < 300 || (answer.status === 503 && answer.code === 'service_unavailable')),
    ),
    refusedWhileDown: answers.filter((answer) => answer.phase === 'down' && answer.status === 503).length,
    failedAfter: answers.filter((answer) => answer.phase === 'after' && answer.status >= 300),
  };
}

function readinessIn(answers: OutageAnswer[]): Record<OutagePhase, number[]> {
  const last = Math.max(...answers.map((answer) => answer.load));
  const of = (phase: OutagePhase) =>
    answers.filter((answer) => answer.load === last && answer.phase === phase).map((answer) => answer.status);
  // Ready before: what was asked and answered while the database was still up.
  const before = answers
    .filter((answer) => answer.load === last && answer.phase === 'before' && answer.answeredIn === 'before')
    .map((answer) => answer.status);
  return { before, down: of('down'), restarting: of('restarting'), after: of('after') };
}

/** One readiness probe, then a pause, as an orchestrator polls (a load for outageDrill). */
export async function pollReadiness(
  client: { get(path: string): Promise<{ status: number }> },
  path: string,
) {
  const response = await client.get(path);
  await pause(100);
  return response;
}

/**
 * What every service must show through an outage: every answer a success or a 503 in the envelope, some
 * 503s while the database was down, none failed after it was back; ready before and after, and not ready
 * from the first probe that found the database gone (one sent just before it went may still have said
 * ready) until it is back.
 */
export function expectOutageAnswered(report: OutageReport): void {
  expect(report.unexpected).toEqual([]);
  expect(report.refusedWhileDown).toBeGreaterThan(0);
  expect(report.failedAfter).toEqual([]);
  const { before, down, after } = report.readiness;
  expect(new Set([...before, ...after])).toEqual(new Set([200]));
  expect(down).toContain(503);
  expect(new Set(down.slice(down.indexOf(503)))).toEqual(new Set([503]));
}
