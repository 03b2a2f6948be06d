import { managerAuthorization, type AgentConfig } from './config.ts';
import { managerMessage } from './manager-error.ts';
import type { CheckinBody, Snapshot } from './snapshot.ts';

export type CheckinAnswer = { status: 304 } | { status: 200; etag: string | null; snapshot: Snapshot };

/** POST /api/v1/agents with the stored ETag: 304 when nothing changed, else the new snapshot. */
export async function checkIn(
  config: AgentConfig,
  etag: string | null,
  body: CheckinBody,
): Promise<CheckinAnswer> {
  const response = await fetch(`${config.managerUrl}/api/v1/agents`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(etag ? { 'if-none-match': etag } : {}),
      ...managerAuthorization(config),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(config.requestTimeoutMs),
  });
  if (response.status === 304) return { status: 304 };
  const text = await response.text();
  if (response.status !== 200) {
    throw new Error(`check-in answered ${response.status}: ${managerMessage(text)}`);
  }
  const { data } = JSON.parse(text) as { data: Snapshot };
  return { status: 200, etag: response.headers.get('etag'), snapshot: data };
}
