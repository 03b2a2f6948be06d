import { conflict, notFound, sha256Hex, uniqueViolationColumns, validationFailed } from '@app/server-kit';
import type { PhraseStatus } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import type { PhrasesRepository, SeenPhrase } from './phrases-repository.ts';
import { isOnlySlots, normaliseKey, sameSlots, slotsOf, type VarSlot } from '@app/slots';
import { fail } from '../errors/catalogue.ts';
import { allowedPageOrigin } from '../projects/origins.ts';

export const MAX_KEYS_PER_REQUEST = 1000;

export interface Phrase {
  id: number;
  key: string;
  context: string;
  status: PhraseStatus;
  varSlots: VarSlot[];
}

export interface RegisterResult {
  ok: true;
  registered: number;
  keyMap: Record<string, string>;
}

export const phraseHash = (key: string, context: string) => sha256Hex(`${key}\u0000${context}`);

/** How long a page waits before trying again when the project is full of unreviewed phrases. */
const FULL_RETRY_AFTER_S = 600;

const tooManyPending = (pending: number, max: number) =>
  fail(
    'rate_limited',
    `This project holds ${pending} phrases waiting for review; pages add new ones only while fewer than ${max} ` +
      'wait. Review or clear pending phrases in the dashboard.',
    undefined,
    { 'retry-after': String(FULL_RETRY_AFTER_S) },
  );

/** What the service asks of its repository (the specs hand it an in-memory one). */
export type PhrasesStore = Pick<
  PhrasesRepository,
  | 'register'
  | 'counts'
  | 'setStatus'
  | 'untranslatedIds'
  | 'delete'
  | 'clearPending'
  | 'get'
  | 'update'
  | 'existing'
>;

/** Phrases (text nodes) of a project: discovery, review status, edits and deletion. */
export class PhrasesService {
  constructor(
    private readonly phrases: PhrasesStore,
    private readonly onDataChanged: (projectId: number) => void,
    /** Phrases were registered from a page (their screenshots may be due). */
    private readonly onSeenOnPage: (projectId: number) => void = () => {},
  ) {}

  /**
   * Upserts the phrases a page reported, in one transaction: new (key, context) pairs are created as
   * pending, every phrase remembers the URL it was seen on. `registered` counts the phrases created by
   * this call (a concurrent duplicate is created once, by whoever gets there first). Page-key calls pass
   * caps: new phrases are created only while fewer than `maxPending` wait for review (a call none of whose
   * new phrases fit is 429), and a page the project has not seen is recorded only while it has fewer than
   * `maxUrls` pages (else the phrases are registered without it), and the URL must be a page on
   * `allowedOrigins` (else 422 and nothing is registered: the dashboard opens these pages with an edit token).
   */
  async register(
    projectId: number,
    keys: { key: string; context?: string | undefined; slots?: string[] | undefined }[],
    url: string | undefined,
    caps: {
      maxPending?: number | undefined;
      maxUrls?: number | undefined;
      allowedOrigins?: readonly string[] | undefined;
    } = {},
  ): Promise<RegisterResult> {
    const { maxPending, allowedOrigins } = caps;
    if (url !== undefined && allowedOrigins && !allowedPageOrigin(allowedOrigins, url))
      throw validationFailed(
        { url: 'is not a page on one of the project’s allowed origins (http or https)' },
        'The page’s address is not on one of the project’s allowed origins: nothing was registered.',
      );
    const keyMap: Record<string, string> = {};
    const byHash = new Map<string, SeenPhrase>();
    for (const item of keys) {
      const context = item.context ?? '';
      const normal = normaliseKey(item.key);
      if (normal.changed) keyMap[item.key] = normal.key;
      if (isOnlySlots(normal.key)) continue;
      // The words of the text slots count only when there is one for each `{{text:N}}`.
      const textSlots = normal.varSlots.filter((slot) => slot.type === 'text').length;
      const slotTexts = item.slots?.length === textSlots && textSlots ? item.slots : undefined;
      byHash.set(phraseHash(normal.key, context), {
        key: normal.key,
        context,
        varSlots: normal.varSlots,
        slotTexts,
      });
    }
    if (!byHash.size) return { ok: true, registered: 0, keyMap };
    const { created, refused, pending, carried } = await this.phrases.register(projectId, byHash, url, caps);
    if (refused && !created) throw tooManyPending(pending, maxPending!);
    if (carried) this.onDataChanged(projectId);
    if (url) this.onSeenOnPage(projectId);
    return { ok: true, registered: created, keyMap };
  }

  counts(projectId: number): Promise<Record<PhraseStatus, number>> {
    return this.phrases.counts(projectId);
  }

  async setStatus(projectId: number, ids: number[], status: PhraseStatus): Promise<number> {
    const updated = await this.phrases.setStatus(projectId, ids, status);
    this.onDataChanged(projectId);
    return updated;
  }

  /** Ids of approved phrases without a translation in `lang`. */
  untranslatedIds(projectId: number, lang: string): Promise<number[]> {
    return this.phrases.untranslatedIds(projectId, lang);
  }

  /** Deletes phrases with their translations and URLs; ids of other projects are left alone. */
  async delete(projectId: number, ids: number[]): Promise<number> {
    const deleted = await this.phrases.delete(projectId, ids);
    this.onDataChanged(projectId);
    return deleted;
  }

  async deleteOne(projectId: number, id: number): Promise<void> {
    if ((await this.delete(projectId, [id])) === 0) throw notFound(`Phrase ${id} not found.`);
  }

  clearPending(projectId: number): Promise<number> {
    return this.phrases.clearPending(projectId);
  }

  async get(projectId: number, id: number): Promise<Phrase> {
    const row = await this.phrases.get(projectId, id);
    if (!row) throw notFound(`Phrase ${id} not found.`);
    return {
      id: row.id,
      key: row.key,
      context: row.context,
      status: row.status,
      varSlots: JSON.parse(row.var_slots),
    };
  }

  /**
   * Edits a phrase's key and slots. The slots must be exactly the tokens in the key (when only the key
   * is given they are read from it); a key that clashes with another phrase of the same context is 409.
   */
  async edit(
    projectId: number,
    id: number,
    change: { key?: string | undefined; varSlots?: VarSlot[] | undefined },
  ) {
    const current = await this.get(projectId, id);
    const key = change.key ?? current.key;
    const inKey = slotsOf(key);
    const varSlots = change.varSlots ?? inKey;
    if (!sameSlots(varSlots, inKey)) {
      throw validationFailed(
        {
          varSlots: `must list exactly the slot tokens of the key (${inKey.map((s) => `{{${s.type}:${s.index}}}`).join(' ') || 'none'})`,
        },
        'varSlots do not match the slot tokens in key.',
      );
    }
    try {
      await this.phrases.update(projectId, id, {
        key,
        key_hash: phraseHash(key, current.context),
        var_slots: JSON.stringify(varSlots),
        slot_count: varSlots.length,
        updated_at: nowIso(),
      });
    } catch (error) {
      if (uniqueViolationColumns(error))
        throw conflict('Another phrase with this key and context exists.', { key: 'is already taken' });
      throw error;
    }
    this.onDataChanged(projectId);
    return { ...current, key, varSlots };
  }

  /** Ids of the phrases of a project among `ids` (the others do not exist or belong to someone else). */
  existing(projectId: number, ids: number[]): Promise<number[]> {
    return this.phrases.existing(projectId, ids);
  }
}
