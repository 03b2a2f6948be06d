import { describe, expect, it } from 'vitest';
import { checkedIn } from '../generated-file.ts';
import { ERROR_CODE_FILES, renderErrorCodes } from '../error-codes.ts';

describe('the web clients’ error-code unions', () => {
  for (const file of ERROR_CODE_FILES) {
    it(`${file.path} is what \`npm run generate\` writes from ${file.source}`, async () => {
      expect(await checkedIn(file)).toBe(await renderErrorCodes(file));
    });
  }
});
