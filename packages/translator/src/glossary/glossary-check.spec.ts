import { describe, expect, it } from 'vitest';
import { glossaryInstructions, glossaryMessage, type GlossaryRule } from './glossary-check.ts';

const rule = (term: string, translation: string | null, extra: Partial<GlossaryRule> = {}): GlossaryRule => ({
  term,
  translation,
  doNotTranslate: translation === null,
  caseSensitive: false,
  ...extra,
});
const RULES = [
  rule('bread', 'pain'),
  rule('Bakery Co', null, { caseSensitive: true }),
  rule('cart', 'panier'),
];

describe('glossaryMessage', () => {
  it('passes a translation that uses the terms, inflected or in another case', () => {
    expect(
      glossaryMessage('Fresh bread at Bakery Co', 'Du pain frais chez Bakery Co', RULES),
    ).toBeUndefined();
    expect(
      glossaryMessage('Breads of the day', 'Les Pains du jour', [rule('breads', 'pain')]),
    ).toBeUndefined();
  });

  it('names each term the translation does not follow', () => {
    expect(glossaryMessage('Fresh bread at Bakery Co', 'Baguette fraîche chez Boulangerie SA', RULES)).toBe(
      'The glossary says: “bread” is “pain”; “Bakery Co” stays as it is.',
    );
    // A do-not-translate term with its case rule: another case is another word.
    expect(glossaryMessage('Bakery Co', 'bakery co', RULES)).toBe(
      'The glossary says: “Bakery Co” stays as it is.',
    );
  });

  it('looks for whole words in the source, so a term inside another word does not count', () => {
    expect(glossaryMessage('Breadcrumbs and carts', 'Chapelure et chariots', RULES)).toBeUndefined();
    expect(glossaryMessage('Your cart', 'Votre chariot', RULES)).toBe(
      'The glossary says: “cart” is “panier”.',
    );
  });

  it('reads terms with regular-expression characters literally', () => {
    expect(glossaryMessage('Try C++ (beta)', 'Essayez C (bêta)', [rule('C++ (beta)', null)])).toBe(
      'The glossary says: “C++ (beta)” stays as it is.',
    );
  });
});

describe('glossaryInstructions', () => {
  it('tells the model only the terms the batch uses', () => {
    expect(glossaryInstructions(['Add to cart', 'Hello'], RULES)).toBe(
      'Glossary of this product: follow it wherever a term appears.\n- "cart": translate it as "panier"',
    );
    expect(glossaryInstructions(['Hello'], RULES)).toBe('');
  });
});
