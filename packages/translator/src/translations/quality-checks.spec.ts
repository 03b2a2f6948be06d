import { describe, expect, it } from 'vitest';
import { qualityIssues } from './quality-checks.ts';

const checks = (source: string, translation: string) =>
  qualityIssues(source, translation).map((issue) => issue.check);

describe('qualityIssues', () => {
  it('passes a faithful translation, slots and all', () => {
    expect(
      checks('You have {{number:0}} new messages.', 'Vous avez {{number:0}} nouveaux messages.'),
    ).toEqual([]);
    expect(checks('Open 24/7!', 'Ouvert 24/7 !')).toEqual([]);
    expect(checks('Wait...', 'Attendez…')).toEqual([]);
    expect(checks('What now?', '次は？')).toEqual([]);
  });

  it('finds numbers that differ, whatever their separators', () => {
    const [issue] = qualityIssues('Free delivery over 50 euros', 'Livraison gratuite dès 60 euros');
    expect(issue).toEqual({
      check: 'numbers',
      message: 'The numbers differ: the source has 50, the translation 60.',
    });
    expect(checks('Over 1,000 users', 'Plus de 1.000 utilisateurs')).toEqual([]);
    expect(checks('Call us', 'Appelez le 3615')).toEqual(['numbers']);
    // Slot indexes are no numbers.
    expect(checks('{{number:1}} items', '{{number:1}} articles')).toEqual([]);
  });

  it('finds spaces at the ends that differ', () => {
    expect(checks(' and more', 'et plus')).toEqual(['leading_space']);
    expect(checks('Total: ', 'Total :')).toEqual(['trailing_space']);
    expect(qualityIssues('Total', 'Total ')[0]!.message).toBe(
      'The translation ends with a space; the source does not.',
    );
  });

  it('finds a sentence end that differs', () => {
    expect(qualityIssues('Saved.', 'Enregistré')[0]).toEqual({
      check: 'end_punctuation',
      message: 'The source ends with “.”; the translation without a mark.',
    });
    expect(checks('Saved!', 'Enregistré.')).toEqual(['end_punctuation']);
    expect(checks('Name', 'Nom :')).toEqual(['end_punctuation']);
  });

  it('finds a translation out of proportion, not on short texts', () => {
    expect(qualityIssues('Add to shopping cart', 'Panier')[0]).toEqual({
      check: 'length',
      message: 'The translation is 30 % of the length of the source.',
    });
    expect(
      checks('Add to shopping cart', 'Ajouter ce produit à votre panier, puis continuez vos achats ici'),
    ).toEqual(['length']);
    expect(checks('OK', 'Einverstanden')).toEqual([]);
  });
});
