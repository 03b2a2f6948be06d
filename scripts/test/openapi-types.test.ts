import { describe, expect, it } from 'vitest';
import { checkedIn } from '../generated-file.ts';
import { OPENAPI_FILES, renderOpenApiTypes } from '../openapi-types.ts';

describe('the web clients’ OpenAPI operation types', () => {
  for (const file of OPENAPI_FILES) {
    it(`${file.path} is what \`npm run generate\` writes from the ${file.service}'s OpenAPI document`, async () => {
      expect(await checkedIn(file)).toBe(await renderOpenApiTypes(file));
    });
  }
});
