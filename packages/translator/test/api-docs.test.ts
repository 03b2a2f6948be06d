import { apiDocsSuite } from '@app/server-kit/testing/api-docs-suite';
import { startHarness } from './helpers.ts';

apiDocsSuite({
  name: 'translator',
  async start() {
    const h = await startHarness();
    return { api: `${h.url}/api`, close: () => h.stop() };
  },
  operations: ['GET /translations', 'POST /ai-jobs'],
  errorCodes: [
    ['/ai-jobs', 'post', '401', ['unauthorized']],
    ['/ai-jobs', 'post', '403', ['page_key_not_allowed', 'not_a_member', 'forbidden', 'csrf_invalid']],
    ['/ai-jobs', 'post', '400', ['invalid_request', 'project_required']],
    ['/translations', 'get', '403', ['origin_not_allowed', 'not_a_member', 'forbidden']],
    ['/metrics', 'get', '401', ['unauthorized']],
  ],
  publicRoute: '/livez',
});
