import { useQuery } from '@tanstack/react-query';
import { api } from './client.ts';

export const useSites = () => useQuery({ queryKey: ['sites'], queryFn: () => api.get('/sites') });

export const useNodes = (siteId: number | undefined) =>
  useQuery({
    queryKey: ['sites', siteId, 'nodes'],
    queryFn: () => api.get('/sites/{siteId}/nodes', { path: { siteId: siteId! } }),
    enabled: siteId !== undefined && Number.isInteger(siteId),
  });

const LAST_SITE = 'manager.lastSite';
export const rememberSite = (siteId: number) => {
  try {
    localStorage.setItem(LAST_SITE, String(siteId));
  } catch {
    // storage unavailable (private mode): nothing to remember
  }
};
export const rememberedSite = (): number | null => {
  try {
    const value = Number(localStorage.getItem(LAST_SITE));
    return Number.isInteger(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
};
