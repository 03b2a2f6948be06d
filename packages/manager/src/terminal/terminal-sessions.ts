import type { FastifyBaseLogger } from 'fastify';
import type { PrincipalCache } from '../auth/principal-cache.ts';

/** How often open terminals re-check their caller when nothing in this process said a thing changed. */
const RECHECK_MS = 10_000;

/** One open browser terminal as the registry sees it. */
export interface LiveTerminal {
  uidNumber: number;
  uid: string;
  siteId: number;
  containerId: number;
  /** From where it was opened (the client address). */
  address: string;
  /** Whether its caller may still hold it: signed in, active, owner or admin of the container. */
  stillAllowed(): Promise<boolean>;
  /** Ends it because the caller may no longer hold it. */
  revoke(reason: string): void;
}

/**
 * The terminals open in this process: the per-user limit, and the re-check that ends a terminal as soon
 * as its user is suspended or deleted, its key or session goes, or the container is no longer theirs —
 * at once when this process made the change (every such change clears the principal cache), otherwise
 * within RECHECK_MS.
 */
export class TerminalSessions {
  private readonly live = new Set<LiveTerminal>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    principals: PrincipalCache,
    private readonly maxPerUser: number,
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

  /** The shell is open (an audit point). */
  opened(terminal: LiveTerminal) {
    this.log.info(this.describe(terminal), 'terminal session opened');
  }

  /** The terminal ended, for `reason` (an audit point); idempotent. */
  closed(terminal: LiveTerminal, reason: string) {
    if (!this.live.delete(terminal)) return;
    this.log.info({ ...this.describe(terminal), reason }, 'terminal session closed');
    if (!this.live.size) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private describe(terminal: LiveTerminal) {
    const { uid, siteId, containerId, address } = terminal;
    return { terminal: { uid, siteId, containerId, address } };
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
