import { Type } from 'typebox';

export { ErrorEnvelope, Nullable, responses } from '@app/server-kit';
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export const Ids = Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { maxItems: 50_000 });
/** Two- or three-letter language code, optionally region/script-qualified: `fr`, `pt-BR`, `zh-Hant-TW`. */
export const LANG_PATTERN = '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,3}$';
export const LangCode = Type.String({ pattern: LANG_PATTERN, maxLength: 35 });
export const Ok = Type.Object({ ok: Type.Boolean() }, { additionalProperties: true });
export const PhraseStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('approved'),
  Type.Literal('trash'),
]);
export const VarSlot = Type.Object({
  type: Type.String({ pattern: '^[a-z][a-z0-9_]{0,31}$' }),
  index: Type.Integer({ minimum: 0, maximum: 999 }),
});
