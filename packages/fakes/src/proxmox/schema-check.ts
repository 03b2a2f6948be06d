import { FakeHttpError } from '../shared/types.ts';
import type { FakeReply, FakeRequest } from '../shared/types.ts';
import { API } from './context.ts';
import { paramError } from './errors.ts';
import { collectParams } from './params.ts';
import { findEndpoint, type Endpoint } from './schema/api-schema.ts';
import type { Errors } from './schema/check-param.ts';
import { checkRequest } from './schema/check-request.ts';
import { checkReturn } from './schema/check-return.ts';
import { typedParams } from './schema/typed-params.ts';
import { watchViolations, type SchemaViolation } from './schema/violations.ts';

interface Verdict {
  endpoint?: Endpoint;
  /** PVE's answer to a request whose parameters do not fit. */
  refusal?: FakeHttpError;
  params?: Record<string, string | number>;
}

/**
 * Holds the fake to the official PVE API schema: every request is checked (refused with PVE's 400 and
 * `errors` map), every answer is checked against `returns`; each mismatch is kept in `violations` until
 * taken, by a test that expects it or by the test guard (which fails the test).
 */
export class SchemaCheck {
  readonly violations: SchemaViolation[] = [];
  private readonly verdicts = new WeakMap<FakeRequest, Verdict>();

  constructor() {
    watchViolations(this);
  }

  /** Checks a request (every one, injected failures and replies too), recording a mismatch. */
  inspect(req: FakeRequest): void {
    this.verdicts.set(req, this.judge(req));
  }

  /** The request's endpoint in the schema; `undefined` when the schema lacks the path or method. */
  endpoint(req: FakeRequest): Endpoint | undefined {
    return this.verdicts.get(req)?.endpoint;
  }

  /** Throws PVE's refusal of the request's parameters (PVE checks them after authenticating). */
  enforce(req: FakeRequest): void {
    const refusal = this.verdicts.get(req)?.refusal;
    if (refusal) throw refusal;
  }

  /** The request's parameters once checked, typed (see `typedParams`). */
  params(req: FakeRequest): Record<string, string | number> {
    const params = this.verdicts.get(req)?.params;
    if (!params) throw new Error(`${req.method} ${req.path} was not checked against the schema`);
    return params;
  }

  /** Records an answer whose `data` is outside the endpoint's `returns` schema. */
  checkAnswer(req: FakeRequest, reply: FakeReply): void {
    const endpoint = this.endpoint(req);
    if (!endpoint || reply.status !== 200 || typeof reply.body !== 'string') return;
    const errors: Errors = {};
    checkReturn(endpoint.schema.returns, (JSON.parse(reply.body) as { data: unknown }).data, 'data', errors);
    if (Object.keys(errors).length) this.record(req, 'answer', errors);
  }

  /** The violations since the last call. */
  take(): SchemaViolation[] {
    return this.violations.splice(0);
  }

  private judge(req: FakeRequest): Verdict {
    if (!req.path.startsWith(`${API}/`)) return {};
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const endpoint = findEndpoint(method, req.path.slice(API.length));
    if (!endpoint?.schema) {
      this.record(req, 'request', {
        path: endpoint
          ? `no ${method} at ${endpoint.template} in the PVE API schema`
          : 'no such path in the PVE API schema',
      });
      return {};
    }
    let fields: Record<string, string>;
    try {
      fields = collectParams(req).values;
    } catch (error) {
      if (!(error instanceof FakeHttpError)) throw error;
      this.record(req, 'request', { body: error.message });
      return { endpoint, refusal: error };
    }
    const errors = checkRequest(endpoint, fields);
    if (!Object.keys(errors).length) return { endpoint, params: typedParams(endpoint, fields) };
    this.record(req, 'request', errors);
    return { endpoint, refusal: paramError(errors) };
  }

  private record(req: FakeRequest, kind: SchemaViolation['kind'], errors: Errors) {
    const query = req.query.toString();
    const path = `${req.path.slice(API.length)}${query ? `?${query}` : ''}`;
    const violation = { kind, method: req.method, path, errors };
    this.violations.push(violation);
  }
}
