import type { Errors } from './check-param.ts';

/** A request the PVE API schema refuses, or an answer of the fake outside its `returns` schema. */
export interface SchemaViolation {
  kind: 'request' | 'answer';
  method: string;
  /** Below `/api2/json`, with the query string. */
  path: string;
  errors: Errors;
}

interface ViolationSource {
  take(): SchemaViolation[];
}

const sources = new Set<ViolationSource>();

/** Every fake's checker registers here, for the test guard. */
export function watchViolations(source: ViolationSource): void {
  sources.add(source);
}

/** The violations no one has taken yet, from every fake (a test guard fails the test on any). */
export function takeReportedViolations(): SchemaViolation[] {
  return [...sources].flatMap((source) => source.take());
}
