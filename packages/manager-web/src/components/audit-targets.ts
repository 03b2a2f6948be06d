import type { AuditEvent } from '../api/audit.ts';

/** Names of audit targets by type and id ("user" → "2001" → "alice"), from what a page already holds. */
export type TargetNames = Partial<Record<string, ReadonlyMap<string, string>>>;

/** The field of a request's details that names what it acted on, by target type. */
const NAME_FIELDS: Readonly<Record<string, string>> = {
  container: 'hostname',
  node: 'name',
  group: 'cn',
  external_domain: 'name',
  alert_rule: 'name',
};

/**
 * `names` plus the names the loaded entries themselves give (a create's or an update's details hold the
 * hostname or name it was asked for; the newest entry's wins), so no entry costs a request of its own.
 * A name from `names` (the page's live lists) is kept over one from the details.
 */
export function withNamesFromDetails(events: AuditEvent[], names: TargetNames): TargetNames {
  const known: Record<string, Map<string, string>> = {};
  for (const { target, details } of events) {
    const field = target.type ? NAME_FIELDS[target.type] : undefined;
    const id = target.id ?? (target.containerId === null ? null : String(target.containerId));
    const name = field ? details?.[field] : undefined;
    if (!target.type || id === null || typeof name !== 'string' || names[target.type]?.has(id)) continue;
    const map = (known[target.type] ??= new Map());
    if (!map.has(id)) map.set(id, name);
  }
  const merged: TargetNames = { ...names };
  for (const [type, map] of Object.entries(known)) merged[type] = new Map([...map, ...(names[type] ?? [])]);
  return merged;
}

/** What an entry acted on, by name where one is known: "container web1", "user alice", "site 3". */
export function targetOf(event: AuditEvent, names: TargetNames): string {
  const { type, id } = event.target;
  if (!type) return '—';
  const label = type.replaceAll('_', ' ');
  return id ? `${label} ${names[type]?.get(id) ?? id}` : label;
}
