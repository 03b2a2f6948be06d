import type { FastifyBaseLogger } from 'fastify';
import type { PrincipalCache } from '../auth/principal-cache.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { AuditActor, AuditEntry, AuditTarget } from '../audit/audit-entry.ts';

/** How often open terminals re-check their caller when nothing in this process said a thing changed. */
const RECHECK_MS = 10_000;

/** One open browser terminal as the registry sees it. */
export interface LiveTerminal {
  uidNumber: number;
  uid: string;
  /** The API key it was opened with, if any. */
  apiKeyId: string | null;
  siteId: number;
  containerId: number;
  /** From where it was opened (the client address). */
  address: string;
  /** Whether its caller may still hold it: signed in, active, owner or admin of the container. */
  stillAllowed(): Promise<boolean>;
  /** Ends it because the caller may no longer hold it. */
  revoke(reason: string): void;
}

/** A terminal upgrade refused before the upgrade, as the audit log records it. */
export interface RefusedTerminal {
  actor: AuditActor;
  address: string;
  target: Pick<AuditTarget, 'id' | 'siteId' | 'containerId'>;
  httpStatus: number;
  errorCode: string | null;
  reason: string;
}

/**
 * The terminals open in this process: the per-user limit, and the re-check that ends a terminal as soon
 * as its user is suspended or deleted, its key or session goes, or the container is no longer theirs —
 * at once when this process made the change (every such change clears the principal cache), otherwise
 * within RECHECK_MS.
 */
export class TerminalSessions {
  private readonly live = new Set<LiveTerminal>();
  private readonly shells = new WeakSet<LiveTerminal>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    principals: PrincipalCache,
    private readonly maxPerUser: number,
    private readonly audit: AuditLog,
    private readonly log: FastifyBaseLogger,
  ) {
    principals.onClear(() => this.recheck());
  }

  /** Takes a terminal in, unless its user holds `maxPerUser` already. */
  admit(terminal: LiveTerminal): boolean {
    let held = 0;
    for (const other of this.live) if (other.uidNumber === terminal.uidNumber) held++;
    if (held >= this.maxPerUser) return false;
    this.live.add(terminal);
    this.timer ??= setInterval(() => this.recheck(), RECHECK_MS).unref();
    return true;
  }

  /** The shell is open: `container.terminal_open` in the audit log. */
  opened(terminal: LiveTerminal) {
    this.shells.add(terminal);
    this.record(terminal, { action: 'container.terminal_open', outcome: 'success' });
  }

  /**
   * The terminal ended, for `reason`; idempotent. `container.terminal_close` after an open shell, else
   * a failed `container.terminal_open` (the node refused, or the user has too many open).
   */
  closed(terminal: LiveTerminal, reason: string) {
    const admitted = this.live.delete(terminal);
    if (this.shells.has(terminal)) {
      this.shells.delete(terminal);
      this.record(terminal, { action: 'container.terminal_close', outcome: 'success', details: { reason } });
    } else {
      this.record(terminal, { action: 'container.terminal_open', outcome: 'failure', details: { reason } });
    }
    if (admitted && !this.live.size) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /**
   * An upgrade answered with an HTTP error before any shell (a collaborator, a stranger, a page of
   * another site): a failed `container.terminal_open` with the status, code and message it was told.
   */
  refused(attempt: RefusedTerminal) {
    const { actor, address, target, httpStatus, errorCode, reason } = attempt;
    this.write({
      action: 'container.terminal_open',
      outcome: 'failure',
      actor,
      sourceAddress: address,
      target: { type: 'container', ...target },
      httpStatus,
      errorCode,
      details: { reason },
    });
  }

  private record(terminal: LiveTerminal, entry: Pick<AuditEntry, 'action' | 'outcome' | 'details'>) {
    const { uidNumber, uid, apiKeyId, siteId, containerId, address } = terminal;
    this.write({
      ...entry,
      actor: { uidNumber, uid, apiKeyId },
      sourceAddress: address,
      target: { type: 'container', id: containerId, siteId, containerId },
    });
  }

  private write(entry: AuditEntry) {
    void this.audit
      .record(entry)
      .catch((error: unknown) => this.log.error({ err: error }, 'the terminal audit entry was not written'));
  }

  private recheck() {
    for (const terminal of this.live) {
      void terminal.stillAllowed().then(
        (allowed) => allowed || terminal.revoke('Your access to this container ended.'),
        () => undefined,
      );
    }
  }
}
