import type { IncomingHttpHeaders } from 'node:http';
import type { FakeReply, FakeRequest, Transport } from './types.ts';

/**
 * Which requests a control applies to. `path` is the request path without the query string: a string
 * is an exact path where `*` matches any run of characters (`/api2/json/nodes/pve1/*`), a RegExp is
 * tested as is. Omitted fields match everything.
 */
export interface RequestMatch {
  method?: string;
  path?: string | RegExp;
}

export interface FailureSpec extends RequestMatch {
  status: number;
  /** Error text, rendered in the fake's own error format. Defaults to a generic text per status. */
  message?: string;
}

/**
 * An answer served instead of the fake's own (oversized bodies, redirects, odd challenges): a reply, or
 * a function of the request that makes one. It is served before authentication and routing.
 */
export interface ReplySpec extends RequestMatch {
  reply: FakeReply | ((req: FakeRequest) => FakeReply);
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
  transport: Transport;
  time: number;
}

interface FailureRule extends FailureSpec {
  remaining: number;
}

interface ReplyRule extends ReplySpec {
  remaining: number;
}

interface LatencyRule extends RequestMatch {
  ms: number;
}

export function matches(match: RequestMatch, method: string, path: string): boolean {
  if (match.method && match.method.toUpperCase() !== method) return false;
  if (match.path === undefined) return true;
  if (match.path instanceof RegExp) return match.path.test(path);
  if (!match.path.includes('*')) return match.path === path;
  const source = match.path
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(path);
}

/** Latency, injected failures and the request log, shared by every fake. */
export class Controls {
  readonly requests: RecordedRequest[] = [];
  private failures: FailureRule[] = [];
  private replies: ReplyRule[] = [];
  private latencies: LatencyRule[] = [];

  /** Delay matching requests by `ms` (rules add up). `setLatency(0)` clears every rule. */
  setLatency(ms: number, match: RequestMatch = {}): void {
    if (ms <= 0 && match.method === undefined && match.path === undefined) this.latencies = [];
    else this.latencies.push({ ...match, ms });
  }

  /** The next `count` matching requests fail with `spec.status`. */
  failNext(count: number, spec: FailureSpec): void {
    this.failures.push({ ...spec, remaining: count });
  }

  /** Every matching request fails until `clearFailures()`. */
  failAlways(spec: FailureSpec): void {
    this.failures.push({ ...spec, remaining: Number.POSITIVE_INFINITY });
  }

  clearFailures(): void {
    this.failures = [];
    this.replies = [];
  }

  /** The next `count` matching requests get `spec.reply` instead of the fake's own answer. */
  replyNext(count: number, spec: ReplySpec): void {
    this.replies.push({ ...spec, remaining: count });
  }

  countRequests(match: RequestMatch = {}): number {
    return this.requests.filter((r) => matches(match, r.method, r.path)).length;
  }

  clearRequests(): void {
    this.requests.length = 0;
  }

  reset(): void {
    this.clearFailures();
    this.clearRequests();
    this.latencies = [];
  }

  latencyFor(method: string, path: string): number {
    return this.latencies.filter((l) => matches(l, method, path)).reduce((sum, l) => sum + l.ms, 0);
  }

  /** Consumes one use of the first matching reply rule. */
  takeReply(method: string, path: string): ReplySpec | undefined {
    return take(this.replies, method, path, (rules) => (this.replies = rules));
  }

  /** Consumes one use of the first matching failure rule. */
  takeFailure(method: string, path: string): FailureSpec | undefined {
    return take(this.failures, method, path, (rules) => (this.failures = rules));
  }
}

function take<T extends RequestMatch & { remaining: number }>(
  rules: T[],
  method: string,
  path: string,
  keep: (rules: T[]) => void,
): T | undefined {
  const rule = rules.find((r) => r.remaining > 0 && matches(r, method, path));
  if (!rule) return undefined;
  rule.remaining -= 1;
  if (rule.remaining <= 0) keep(rules.filter((r) => r !== rule));
  return rule;
}
