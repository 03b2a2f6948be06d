import { Type, type TSchema } from 'typebox';

/** `{data: T}` — the success envelope. */
export const Data = <T extends TSchema>(schema: T) => Type.Object({ data: schema });

export { ErrorEnvelope, Nullable, responses } from '@app/server-kit';
export const DateTime = Type.String({ format: 'date-time' });
/** The largest value of an `integer` column (PostgreSQL's is 32-bit): ids, offsets and numbers stay below it. */
export const INT32_MAX = 2_147_483_647;
/** A row id in a path or a body: 1 to INT32_MAX. */
export const RowId = (options: { description?: string } = {}) =>
  Type.Integer({ minimum: 1, maximum: INT32_MAX, ...options });
export const IdParams = Type.Object({ id: RowId() });
export const SiteParams = Type.Object({ siteId: RowId() });
/** Seconds since 1970 up to the last second of year 9999 (what a date column can hold). */
export const EpochSeconds = Type.Integer({ minimum: 0, maximum: 253_402_300_799 });
