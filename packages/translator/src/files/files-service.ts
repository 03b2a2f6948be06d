import { normaliseKey, slotSignature } from '@app/slots';
import type { FieldErrors } from '@app/server-kit';
import type { ChangeFeed } from '../changes.ts';
import { fail, failAs } from '../errors/catalogue.ts';
import { phraseHash } from '../phrases/phrases-service.ts';
import type { StoredSettings } from '../projects/settings.ts';
import type { TranslationsRepository } from '../translations/translations-repository.ts';
import { CODECS } from './codecs.ts';
import { FileError, type FileFormat, type ReadFile, type ReadUnit } from './exchange.ts';

/** How many changed and unknown units a report lists (the counts are always whole). */
const LISTED = 200;

export interface ExportedFile {
  name: string;
  contentType: string;
  body: string;
}

export interface ImportChange {
  phraseId: number;
  key: string;
  context: string;
  old: string | null;
  new: string;
}

export interface ImportReport {
  format: FileFormat;
  lang: string;
  /** True when nothing was written: the report says what an import would do. */
  dryRun: boolean;
  units: number;
  /** Translations written (created + updated). */
  changed: number;
  created: number;
  updated: number;
  /** Units whose translation is already the one stored. */
  unchanged: number;
  /** Units without a translation, or marked unfinished in the file (PO fuzzy, XLIFF `initial`/`needs-…`). */
  skipped: number;
  /** Units naming no phrase of this project. */
  unknown: number;
  changes: ImportChange[];
  unknownUnits: { key: string; context: string }[];
}

export type FilesStore = Pick<
  TranslationsRepository,
  'transaction' | 'fileUnits' | 'phrasesByHash' | 'valuesOf' | 'save'
>;

/** `fr`, `fr-FR` and `fr_FR` name one language for a file; `zh-Hans` and `zh-Hant` do not. */
function sameLanguage(declared: string, lang: string): boolean {
  const [a, b] = [declared, lang].map((code) => code.toLowerCase().replace(/_/g, '-'));
  return a === b || a!.startsWith(`${b}-`) || b!.startsWith(`${a}-`);
}

/** Translations as files for CAT tools and code (XLIFF, PO, CSV, JSON), and imports of them back. */
export class FilesService {
  constructor(
    private readonly translations: FilesStore,
    private readonly changes: ChangeFeed,
  ) {}

  /** A language the project does not translate into: 404 for a file to read, 422 for one to import. */
  private checkLanguage(settings: StoredSettings, lang: string, status: 404 | 422) {
    if (settings.languages.includes(lang)) return;
    const message = `Language "${lang}" is not configured for this project; add it to settings.languages first.`;
    throw status === 404
      ? failAs(404, 'unknown_language', message)
      : fail('unknown_language', message, { lang: 'is not configured' });
  }

  /** Every phrase not in the trash, with its translation into `lang` where there is one. */
  async export(
    project: { id: number; name: string },
    settings: StoredSettings,
    lang: string,
    format: FileFormat,
    sourceLang: string,
  ): Promise<ExportedFile> {
    this.checkLanguage(settings, lang, 404);
    const codec = CODECS[format];
    const units = await this.translations.fileUnits(project.id, lang);
    return {
      name: `translations-${lang}.${format === 'json-nested' ? 'nested.json' : codec.extension}`,
      contentType: `${codec.contentType}; charset=utf-8`,
      body: codec.write(
        { project: project.name, sourceLang, lang },
        units.map((unit) => ({ ...unit, value: unit.value ?? null, state: unit.state ?? null })),
      ),
    };
  }

  /**
   * Reads a file and writes the translations it changes, all or nothing, recorded in the history as
   * an import. A file that cannot be read, or whose translations would lose or add a slot, changes
   * nothing; units naming no phrase are reported and left out.
   */
  async import(
    projectId: number,
    settings: StoredSettings,
    lang: string,
    format: FileFormat,
    text: string,
    options: { dryRun: boolean; actor: string },
  ): Promise<ImportReport> {
    this.checkLanguage(settings, lang, 422);
    const file = this.read(format, text, lang);
    const report: ImportReport = {
      format,
      lang,
      dryRun: options.dryRun,
      units: file.units.length,
      changed: 0,
      created: 0,
      updated: 0,
      unchanged: 0,
      skipped: 0,
      unknown: 0,
      changes: [],
      unknownUnits: [],
    };
    // A phrase the file holds twice takes its last translation, counted once.
    const byHash = new Map<string, ReadUnit & { index: number; hash: string }>();
    file.units.forEach((unit, index) => {
      if (unit.unfinished || unit.value === '') report.skipped++;
      else {
        const hash = phraseHash(normaliseKey(unit.key).key, unit.context);
        byHash.delete(hash);
        byHash.set(hash, { ...unit, index, hash });
      }
    });
    const wanted = [...byHash.values()];
    const outcome = await this.translations.transaction(async (trx) => {
      const phrases = new Map(
        (
          await this.translations.phrasesByHash(projectId, [...new Set(wanted.map((unit) => unit.hash))], trx)
        ).map((phrase) => [phrase.key_hash, phrase]),
      );
      const current = await this.translations.valuesOf(
        lang,
        [...phrases.values()].map((phrase) => phrase.id),
        trx,
      );
      const slotErrors: FieldErrors = {};
      const writes = new Map<number, string>();
      for (const unit of wanted) {
        const phrase = phrases.get(unit.hash);
        if (!phrase) {
          report.unknown++;
          if (report.unknownUnits.length < LISTED)
            report.unknownUnits.push({ key: unit.key, context: unit.context });
          continue;
        }
        if (slotSignature(unit.value) !== slotSignature(phrase.key)) {
          slotErrors[`units.${unit.index}`] =
            `"${phrase.key.slice(0, 80)}": the translation must keep exactly the slots of the source`;
          continue;
        }
        const old = current.get(phrase.id);
        if (old === unit.value) {
          report.unchanged++;
          continue;
        }
        writes.set(phrase.id, unit.value);
        if (old === undefined) report.created++;
        else report.updated++;
        if (report.changes.length < LISTED) {
          report.changes.push({
            phraseId: phrase.id,
            key: phrase.key,
            context: unit.context,
            old: old ?? null,
            new: unit.value,
          });
        }
      }
      const broken = Object.keys(slotErrors).length;
      if (broken) {
        throw fail(
          'slot_mismatch',
          `${broken} translation(s) in the file lose or add slots; nothing was imported. Fix them and import again.`,
          slotErrors,
        );
      }
      report.changed = writes.size;
      if (!options.dryRun && writes.size) {
        await this.translations.save(
          projectId,
          lang,
          writes,
          { state: 'human', source: 'import', actor: options.actor },
          trx,
        );
      }
      return report;
    });
    if (!options.dryRun && outcome.changed) this.changes.announce('data', projectId);
    return outcome;
  }

  private read(format: FileFormat, text: string, lang: string): ReadFile {
    let file: ReadFile;
    try {
      file = CODECS[format].read(text);
    } catch (error) {
      if (!(error instanceof FileError)) throw error;
      throw fail('invalid_file', `This is not a readable ${format} file: ${error.message}.`, {
        file: error.message,
      });
    }
    if (file.lang && !sameLanguage(file.lang, lang)) {
      throw fail(
        'invalid_file',
        `The file is for "${file.lang}", not "${lang}": import it into its own language.`,
        {
          lang: `the file is for ${file.lang}`,
        },
      );
    }
    return file;
  }
}
