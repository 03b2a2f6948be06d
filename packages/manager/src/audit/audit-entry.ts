/** Who acted: a user (by session or API key), or nobody signed in (`system`: the manager itself). */
export interface AuditActor {
  uidNumber: number | null;
  uid: string | null;
  apiKeyId: string | null;
}

/** What an entry is about; every field optional (a sign-in has no target). */
export interface AuditTarget {
  type?: string | null;
  id?: string | number | null;
  siteId?: number | null;
  containerId?: number | null;
}

/** One entry of the audit log, as the code records it (`audit.record`). */
export interface AuditEntry {
  /** `<resource>.<verb>`: `container.update`, `auth.sign_in`, `auth.sign_in_failed`, … */
  action: string;
  /** Omitted: the current request's caller, or `system` outside a request. */
  actor?: AuditActor | null;
  /** Omitted: the current request's client address (`request.ip`, which honours TRUST_PROXY). */
  sourceAddress?: string | null;
  target?: AuditTarget;
  outcome: 'success' | 'failure';
  httpStatus?: number | null;
  errorCode?: string | null;
  /** Redacted before it is stored (see redact.ts). */
  details?: Record<string, unknown> | null;
}

/** An entry as the API answers it. */
export interface AuditEvent {
  id: number;
  occurredAt: string;
  actor: { uidNumber: number | null; uid: string | null; apiKeyId: string | null; kind: ActorKind };
  sourceAddress: string | null;
  action: string;
  target: { type: string | null; id: string | null; siteId: number | null; containerId: number | null };
  outcome: 'success' | 'failure';
  httpStatus: number | null;
  errorCode: string | null;
  details: Record<string, unknown> | null;
}

export type ActorKind = 'user' | 'apikey' | 'system';

export const SYSTEM_ACTOR: AuditActor = { uidNumber: null, uid: null, apiKeyId: null };

/** The filters of the audit log's list and CSV export. */
export interface AuditFilter {
  uidNumber?: number;
  siteId?: number;
  containerId?: number;
  /** An exact action, or a prefix ending in `.` (`container.`). */
  action?: string;
  from?: string;
  to?: string;
}
