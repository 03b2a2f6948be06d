import { apiDocsSuite } from '@app/server-kit/testing/api-docs-suite';
import { signedInMember, startHarness, type Harness } from './helpers.ts';

let h: Harness;

apiDocsSuite({
  name: 'translator',
  async start() {
    h = await startHarness();
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
  schemes: ['apiKey', 'session', 'projectId', 'metricsToken'],
  tryOut: {
    keyScheme: 'apiKey',
    key: async () => h.key,
    async signIn(request) {
      const { email, password } = await signedInMember(h, 'owner');
      const answer = await request.post(`${h.url}/api/auth/login`, { data: { email, password } });
      if (!answer.ok()) throw new Error(`sign-in failed: ${answer.status()}`);
    },
    read: 'GET /members',
    write: 'POST /textnodes/clear-pending',
    sessionReads: ['GET /members'],
  },
});
