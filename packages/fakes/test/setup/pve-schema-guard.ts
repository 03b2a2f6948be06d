import { afterEach } from 'vitest';
import { takeReportedViolations } from '@app/fakes';

/**
 * Every test: a request a `ProxmoxFake` got that the official PVE API schema refuses (or an answer of
 * the fake outside the schema's `returns`) fails the test, naming the call and PVE's messages.
 */
afterEach(() => {
  const violations = takeReportedViolations();
  if (!violations.length) return;
  const lines = violations.map(
    ({ kind, method, path, errors }) =>
      `${kind === 'request' ? 'request' : 'answer of'} ${method} ${path}: ${JSON.stringify(errors)}`,
  );
  throw new Error(`Proxmox VE API schema violations:\n${lines.join('\n')}`);
});
