import { expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { errorCatalogueSuite } from '@app/server-kit/testing/error-catalogue-suite';
import { fail, MANAGER_ERRORS } from '../src/errors/catalogue.ts';
import { startManager } from './helpers.ts';

errorCatalogueSuite({
  name: 'manager',
  catalogue: MANAGER_ERRORS,
  async start() {
    const test = await startManager();
    return { api: `${test.baseUrl}/api/v1`, close: () => test.close() };
  },
  sourceDir: fileURLToPath(new URL('../src', import.meta.url)),
});

it('refuses a code outside the catalogue, at compile time and at run time', () => {
  // @ts-expect-error a code outside the catalogue does not compile
  expect(() => fail('no_such_code')).toThrow('not in the catalogue');
});
