import type { MigrationSet } from '@app/server-kit';
import { initial } from './001_initial.ts';
import { pageKeys } from './002_page_keys.ts';
import { pageKeyRequired } from './003_page_key_required.ts';
import { translationStates } from './004_translation_states.ts';
import { glossary } from './005_glossary.ts';
import { translationMemory } from './006_translation_memory.ts';
import { outdatedTranslations } from './007_outdated_translations.ts';
import { accounts } from './008_accounts.ts';
import { slotTexts } from './009_slot_texts.ts';
import { screenshots } from './010_screenshots.ts';

export const translatorMigrations: MigrationSet = (dialect) => ({
  '001_initial': initial(dialect),
  '002_page_keys': pageKeys(),
  '003_page_key_required': pageKeyRequired(dialect),
  '004_translation_states': translationStates(dialect),
  '005_glossary': glossary(dialect),
  '006_translation_memory': translationMemory(dialect),
  '007_outdated_translations': outdatedTranslations(),
  '008_accounts': accounts(dialect),
  '009_slot_texts': slotTexts(),
  '010_screenshots': screenshots(dialect),
});
