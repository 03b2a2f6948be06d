import { apiDocsSuite } from '@app/server-kit/testing/api-docs-suite';
import { adminClient, startManager, type TestManager } from './helpers.ts';

let test: TestManager;

apiDocsSuite({
  name: 'manager',
  async start() {
    test = await startManager();
    await adminClient(test);
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
  schemes: ['session', 'bearer'],
  tryOut: {
    keyScheme: 'bearer',
    async key() {
      const admin = test.client();
      await admin.login('admin');
      return (await admin.post('/apikeys', { description: 'API docs' })).body.data.key as string;
    },
    async signIn(request) {
      const answer = await request.post(`${test.baseUrl}/api/v1/auth/login`, {
        data: { username: 'admin', password: 'correct horse' },
      });
      if (!answer.ok()) throw new Error(`sign-in failed: ${answer.status()}`);
    },
    read: 'GET /apikeys',
    write: 'POST /apikeys',
    sessionReads: [],
  },
});
