import { apiDocsSuite } from '@app/server-kit/testing/api-docs-suite';
import { startManager } from './helpers.ts';

apiDocsSuite({
  name: 'manager',
  async start() {
    const test = await startManager();
    return { api: `${test.baseUrl}/api/v1`, close: () => test.close() };
  },
  operations: ['GET /health', 'DELETE /sites/{id}'],
  errorCodes: [
    ['/sites/{id}', 'delete', '401', ['unauthorized']],
    ['/sites/{id}', 'delete', '403', ['forbidden', 'csrf_invalid']],
    ['/sites/{id}', 'delete', '404', ['not_found']],
    ['/sites/{id}', 'delete', '429', ['rate_limited']],
  ],
  publicRoute: '/readyz',
});
