import { expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { errorCatalogueSuite } from '@app/server-kit/testing/error-catalogue-suite';
import { fail, TRANSLATOR_ERRORS } from '../src/errors/catalogue.ts';
import { startHarness } from './helpers.ts';

errorCatalogueSuite({
  name: 'translator',
  catalogue: TRANSLATOR_ERRORS,
  async start() {
    const h = await startHarness();
    return { api: `${h.url}/api`, close: () => h.stop() };
  },
  sourceDir: fileURLToPath(new URL('../src', import.meta.url)),
});

it('refuses a code outside the catalogue, at compile time and at run time', () => {
  // @ts-expect-error a code outside the catalogue does not compile
  expect(() => fail('no_such_code')).toThrow('not in the catalogue');
});
