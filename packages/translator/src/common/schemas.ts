import { Type } from 'typebox';

export { ErrorEnvelope, Nullable, responses } from '@app/server-kit';
/**
 * Every integer a client sends has both bounds, so an out-of-range value is a 400 before it reaches a
 * query (PostgreSQL refuses an id past int4, both databases an offset past int8).
 */
const MAX_INT4 = 2_147_483_647;
export const RowId = Type.Integer({ minimum: 1, maximum: MAX_INT4 });
export const IdParams = Type.Object({ id: RowId });
export const Ids = Type.Array(RowId, { maxItems: 50_000 });
export const Offset = Type.Integer({ minimum: 0, maximum: MAX_INT4, default: 0 });
/** A page of at most 500 rows: the millionth page still starts below int4. */
export const PageNumber = Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 });
export const PageLimit = Type.Integer({ minimum: 1, maximum: 500, default: 50 });
/** Two- or three-letter language code, optionally region/script-qualified: `fr`, `pt-BR`, `zh-Hant-TW`. */
export const LANG_PATTERN = '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,3}$';
export const LangCode = Type.String({ pattern: LANG_PATTERN, maxLength: 35 });
export const Ok = Type.Object({ ok: Type.Boolean() }, { additionalProperties: true });
export const PhraseStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('approved'),
  Type.Literal('trash'),
]);
export const TranslationStateSchema = Type.Union([
  Type.Literal('machine'),
  Type.Literal('human'),
  Type.Literal('reviewed'),
]);
export const QualityCheckSchema = Type.Union([
  Type.Literal('numbers'),
  Type.Literal('leading_space'),
  Type.Literal('trailing_space'),
  Type.Literal('end_punctuation'),
  Type.Literal('length'),
  Type.Literal('glossary'),
]);
export const QualityIssueSchema = Type.Object({ check: QualityCheckSchema, message: Type.String() });
export const VarSlot = Type.Object({
  type: Type.String({ pattern: '^[a-z][a-z0-9_]{0,31}$' }),
  index: Type.Integer({ minimum: 0, maximum: 999 }),
});
