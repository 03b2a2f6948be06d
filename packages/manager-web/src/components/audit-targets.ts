import type { AuditEvent } from '../api/audit.ts';

/** Names of audit targets by type and id ("user" → "2001" → "alice"), from what a page already holds. */
export type TargetNames = Partial<Record<string, ReadonlyMap<string, string>>>;

/**
 * `names` plus the containers' hostnames that the loaded entries themselves give (a create's details
 * hold the hostname it was asked for), so no entry costs a request of its own.
 */
export function withContainerNames(events: AuditEvent[], names: TargetNames): TargetNames {
  const containers = new Map(names.container);
  for (const { target, details } of events)
    if (target.type === 'container' && target.containerId !== null && typeof details?.hostname === 'string')
      containers.set(String(target.containerId), details.hostname);
  return { ...names, container: containers };
}

/** What an entry acted on, by name where one is known: "container web1", "user alice", "site 3". */
export function targetOf(event: AuditEvent, names: TargetNames): string {
  const { type, id } = event.target;
  if (!type) return '—';
  const label = type.replaceAll('_', ' ');
  return id ? `${label} ${names[type]?.get(id) ?? id}` : label;
}
