import type { AuditEvent } from './audit-entry.ts';

export const CSV_COLUMNS = [
  'id',
  'occurredAt',
  'actorUid',
  'actorUidNumber',
  'actorApiKeyId',
  'sourceAddress',
  'action',
  'targetType',
  'targetId',
  'siteId',
  'containerId',
  'outcome',
  'httpStatus',
  'errorCode',
  'details',
] as const;

/**
 * One CSV cell, quoted. A text that a spreadsheet would run as a formula (starting with `=`, `+`, `-`,
 * `@`, a tab or a carriage return) is prefixed with `'`, so an opened export computes nothing.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvLine(cells: Array<string | number | null>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The export, header row first, one line per entry as `events` yields them. */
export async function* auditCsv(events: AsyncIterable<AuditEvent>): AsyncGenerator<string> {
  yield csvLine([...CSV_COLUMNS]);
  for await (const event of events) {
    yield csvLine([
      event.id,
      event.occurredAt,
      event.actor.uid,
      event.actor.uidNumber,
      event.actor.apiKeyId,
      event.sourceAddress,
      event.action,
      event.target.type,
      event.target.id,
      event.target.siteId,
      event.target.containerId,
      event.outcome,
      event.httpStatus,
      event.errorCode,
      event.details ? JSON.stringify(event.details) : null,
    ]);
  }
}
