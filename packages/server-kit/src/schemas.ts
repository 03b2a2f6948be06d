import { Type, type Static, type TSchema } from 'typebox';

/**
 * `T | null`. A schema with one JSON type becomes a type list (`type: ['string', 'null']`): with ajv's
 * type coercion, null then stays null while other values are still coerced. (An `anyOf` with the type
 * first would turn null into "", 0 or false.) Schemas without one type get `null` as their first branch.
 */
export const Nullable = <T extends TSchema>(schema: T) => {
  const { type } = schema as { type?: unknown };
  if (typeof type === 'string') return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
  return Type.Unsafe<Static<T> | null>(Type.Union([Type.Null(), schema]));
};

/** The error envelope every 4xx and 5xx answer carries (see errors.ts). */
export const ErrorEnvelope = Type.Object({
  error: Type.Object({
    code: Type.String(),
    message: Type.String(),
    fields: Type.Optional(Type.Record(Type.String(), Type.String())),
  }),
});

/** Success schema plus the error envelope for every 4xx and 5xx, for the response serialiser and the docs. */
export const responses = <T extends Record<number, TSchema>>(success: T) => ({
  ...success,
  '4xx': ErrorEnvelope,
  '5xx': ErrorEnvelope,
});
