import { Type, type TSchema } from 'typebox';

/** `{data: T}` — the success envelope. */
export const Data = <T extends TSchema>(schema: T) => Type.Object({ data: schema });

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

export { Nullable } from '@app/server-kit';
export const DateTime = Type.String({ format: 'date-time' });
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
