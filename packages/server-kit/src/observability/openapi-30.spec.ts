import { describe, expect, it } from 'vitest';
import { asOpenApi30 } from './openapi-30.ts';

describe('the OpenAPI 3.0 rendition for Swagger UI', () => {
  it('says 3.0.3 and turns null types into nullable, leaving the rest as it was', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'x', version: '1' },
      paths: {
        '/a': {
          get: {
            tags: ['A'],
            security: [{ bearer: [] }],
            responses: {
              '200': {
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      required: ['name'],
                      properties: {
                        name: { type: ['string', 'null'], maxLength: 3 },
                        either: { type: ['string', 'integer', 'null'] },
                        union: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
                        list: { type: 'array', items: { type: ['boolean', 'null'] } },
                        plain: { type: 'string', enum: ['a', 'b'] },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    };
    const before = JSON.stringify(document);
    const rendition = asOpenApi30(document) as typeof document;
    expect(JSON.stringify(document)).toBe(before);
    expect(rendition.openapi).toBe('3.0.3');
    expect(rendition.info).toEqual(document.info);
    const operation = rendition.paths['/a'].get;
    expect(operation.tags).toEqual(['A']);
    expect(operation.security).toEqual([{ bearer: [] }]);
    expect(operation.responses['200'].content['application/json'].schema).toEqual({
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', maxLength: 3, nullable: true },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }], nullable: true },
        union: { type: 'integer', minimum: 1, nullable: true },
        list: { type: 'array', items: { type: 'boolean', nullable: true } },
        plain: { type: 'string', enum: ['a', 'b'] },
      },
    });
    expect(JSON.stringify(rendition)).not.toContain('"null"');
  });
});
