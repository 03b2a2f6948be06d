/** Phrases and their translations (the rows of the grid, the review and the AI job picker): query keys and reads. */
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { api, type QueryOf } from '../api.ts';

type RowsQuery = QueryOf<'get', '/translations/all'>;

export const rowKeys = {
  /** Every read of rows and their counts: what a translation or status change makes stale. */
  all: ['rows'] as const,
  list: (view: 'grid' | 'review' | 'picker', params: RowsQuery) => ['rows', view, params] as const,
  counts: ['rows', 'counts'] as const,
  untranslatedIds: (lang: string | null) => ['rows', 'untranslated-ids', lang] as const,
  history: (phraseId: number, lang: string) => ['rows', 'history', phraseId, lang] as const,
  memory: (text: string, lang: string) => ['rows', 'memory', lang, text] as const,
};

/** One page of rows for a view; the grid and the review keep the previous page shown while the next loads. */
export const useRows = (view: 'grid' | 'review' | 'picker', params: RowsQuery, enabled = true) =>
  useQuery({
    queryKey: rowKeys.list(view, params),
    queryFn: () => api.get('/translations/all', { query: params }),
    enabled,
    ...(view === 'picker' ? {} : { placeholderData: keepPreviousData }),
  });

/**
 * The phrases `ids` (a page of the grid) in each of `langs`, by language and phrase id: the languages
 * the grid shows beside its own, whatever that page's filters on its own language were.
 */
export function useRowsBeside(langs: string[], ids: number[]) {
  const answers = useQueries({
    queries: langs.map((lang) => {
      const params: RowsQuery = { lang, ids: ids.join(','), limit: Math.max(ids.length, 1) };
      return {
        queryKey: rowKeys.list('grid', params),
        queryFn: () => api.get('/translations/all', { query: params }),
        enabled: ids.length > 0,
        placeholderData: keepPreviousData,
      };
    }),
  });
  return new Map(langs.map((lang, i) => [lang, new Map(answers[i]?.data?.rows.map((row) => [row.id, row]))]));
}

export const useRowCounts = () =>
  useQuery({ queryKey: rowKeys.counts, queryFn: () => api.get('/translations/counts') });

export const useUntranslatedIds = (lang: string | null) =>
  useQuery({
    queryKey: rowKeys.untranslatedIds(lang),
    queryFn: () => api.get('/textnodes/untranslated-ids', { query: { lang: lang! } }),
    enabled: !!lang,
  });

/** What the translation memory offers for `text` in `lang`, best first; read only while `enabled`. */
export const useMemoryMatches = (text: string, lang: string, enabled: boolean) =>
  useQuery({
    queryKey: rowKeys.memory(text, lang),
    queryFn: () => api.get('/translations/memory', { query: { text, lang } }),
    enabled,
    staleTime: 30_000,
  });

/** Every change of one phrase's translation into `lang`, newest first (stale with the rows). */
export const useHistory = (phraseId: number, lang: string) =>
  useQuery({
    queryKey: rowKeys.history(phraseId, lang),
    queryFn: () => api.get('/translations/history', { query: { phrase_id: phraseId, lang } }),
  });
