/** Analytics: query keys and reads. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type QueryOf } from '../api.ts';

export const analyticsKeys = {
  /** Every analytics read: what a translation or status change makes stale. */
  all: ['analytics'] as const,
  summary: ['analytics', 'summary'] as const,
  languages: ['analytics', 'languages'] as const,
  activity: ['analytics', 'activity'] as const,
  quality: ['analytics', 'quality'] as const,
  urls: (params: QueryOf<'get', '/analytics/urls'> | 'all') => ['analytics', 'urls', params] as const,
  urlDetail: (url: string) => ['analytics', 'url-detail', url] as const,
  phrase: (id: string | undefined) => ['analytics', 'phrase', id] as const,
};

/** The summary counts; `pollUntilFirstPageMs` asks again that often while no page has been seen (the first steps wait for one). */
export const useSummary = ({ pollUntilFirstPageMs }: { pollUntilFirstPageMs?: number } = {}) =>
  useQuery({
    queryKey: analyticsKeys.summary,
    queryFn: () => api.get('/analytics'),
    refetchInterval: (query) =>
      pollUntilFirstPageMs && !query.state.data?.uniqueUrls ? pollUntilFirstPageMs : false,
  });

export const useCoverage = () =>
  useQuery({ queryKey: analyticsKeys.languages, queryFn: () => api.get('/analytics/languages') });

export const useQuality = () =>
  useQuery({ queryKey: analyticsKeys.quality, queryFn: () => api.get('/analytics/quality') });

export const useActivity = () =>
  useQuery({ queryKey: analyticsKeys.activity, queryFn: () => api.get('/analytics/activity') });

/** A page of the URLs where phrases were seen. */
export const useUrls = (params: QueryOf<'get', '/analytics/urls'>) =>
  useQuery({
    queryKey: analyticsKeys.urls(params),
    queryFn: () => api.get('/analytics/urls', { query: params }),
    placeholderData: keepPreviousData,
  });

/** The first 500 URLs, to filter the review by. */
export const useAllUrls = () =>
  useQuery({
    queryKey: analyticsKeys.urls('all'),
    queryFn: () => api.get('/analytics/urls', { query: { limit: 500 } }),
  });

export const useUrlDetail = (url: string) =>
  useQuery({
    queryKey: analyticsKeys.urlDetail(url),
    queryFn: () => api.get('/analytics/url-detail', { query: { url } }),
    enabled: !!url,
  });

export const usePhraseDetail = (id: string | undefined) =>
  useQuery({
    queryKey: analyticsKeys.phrase(id),
    queryFn: () => api.get('/analytics/phrase-detail', { query: { id: Number(id) } }),
  });
