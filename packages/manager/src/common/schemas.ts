import { Type, type TSchema } from 'typebox';

/** `{data: T}` — the success envelope. */
export const Data = <T extends TSchema>(schema: T) => Type.Object({ data: schema });

export { ErrorEnvelope, Nullable, responses } from '@app/server-kit';
export const DateTime = Type.String({ format: 'date-time' });
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
