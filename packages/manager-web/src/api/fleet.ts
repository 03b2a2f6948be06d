/** Sites and their nodes: query keys, reads and writes. */
import { useQuery } from '@tanstack/react-query';
import { api, type BodyOf } from './client.ts';
import type { Node, Site } from './types.ts';
import { useWrite, type WriteCallbacks } from './write.ts';

export const siteKeys = {
  /** Every read of sites and what lives under them (nodes, containers, agent tokens). */
  all: ['sites'] as const,
  nodes: (siteId: number | undefined) => ['sites', siteId, 'nodes'] as const,
  node: (siteId: number, id: number | null) => ['sites', siteId, 'nodes', id] as const,
  nodeStats: (siteId: number, id: number) => ['sites', siteId, 'nodes', id, 'stats'] as const,
  nodeStorages: (siteId: number, id: number) => ['sites', siteId, 'nodes', id, 'storages'] as const,
};

export const useSites = () => useQuery({ queryKey: siteKeys.all, queryFn: () => api.get('/sites') });

/** The read of a site's nodes, for useNodes and for pages that read several sites' nodes at once. */
export const nodesQuery = (siteId: number | undefined) => ({
  queryKey: siteKeys.nodes(siteId),
  queryFn: () => api.get('/sites/{siteId}/nodes', { path: { siteId: siteId! } }),
  enabled: siteId !== undefined && Number.isInteger(siteId),
});

export const useNodes = (siteId: number | undefined) => useQuery(nodesQuery(siteId));

/** One node; `id` null reads nothing (a new node's form). */
export const useNode = (siteId: number, id: number | null) =>
  useQuery({
    queryKey: siteKeys.node(siteId, id),
    queryFn: () => api.get('/sites/{siteId}/nodes/{id}', { path: { siteId, id: id! } }),
    enabled: id !== null,
  });

/** A node's live usage and whether it answers, read every `every` milliseconds (not again after an error). */
export const useNodeStats = (siteId: number, id: number, every: number) =>
  useQuery({
    queryKey: siteKeys.nodeStats(siteId, id),
    queryFn: () => api.get('/sites/{siteId}/nodes/{id}/stats', { path: { siteId, id } }),
    refetchInterval: (q) => (q.state.status === 'error' ? false : every),
    staleTime: 0,
  });

export const useNodeStorages = (siteId: number, id: number) =>
  useQuery({
    queryKey: siteKeys.nodeStorages(siteId, id),
    queryFn: () => api.get('/sites/{siteId}/nodes/{id}/storages', { path: { siteId, id } }),
  });

type SiteBody = BodyOf<'post', '/sites'>;

/** Creates a site (`site` null) or changes one. */
export const useSaveSite = (site: Site | null, callbacks?: WriteCallbacks<unknown, SiteBody>) =>
  useWrite(
    (body: SiteBody) =>
      site ? api.put('/sites/{id}', { path: { id: site.id }, body }) : api.post('/sites', { body }),
    [siteKeys.all],
    callbacks,
  );

export const useDeleteSite = (callbacks?: WriteCallbacks<unknown, Site>) =>
  useWrite((site: Site) => api.delete('/sites/{id}', { path: { id: site.id } }), [siteKeys.all], callbacks);

export const useDeleteNode = (siteId: number, callbacks?: WriteCallbacks<unknown, Node>) =>
  useWrite(
    (node: Node) => api.delete('/sites/{siteId}/nodes/{id}', { path: { siteId, id: node.id } }),
    [siteKeys.all],
    callbacks,
  );

type ImportBody = BodyOf<'post', '/sites/{siteId}/nodes/import'>;

/** Adds the members of a Proxmox VE cluster as nodes of the site, with their containers. */
export const useImportNodes = (
  siteId: number,
  callbacks?: WriteCallbacks<{ nodes: Node[]; importedContainerCount: number }, ImportBody>,
) =>
  useWrite(
    (body: ImportBody) => api.post('/sites/{siteId}/nodes/import', { path: { siteId }, body }),
    [siteKeys.all],
    callbacks,
  );

/** What this browser remembers (localStorage, where the browser allows it: private mode may not). */
function store(key: string, value: string) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // storage unavailable: nothing to remember
  }
}
function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

const LAST_SITE = 'manager.lastSite';
export const rememberSite = (siteId: number) => store(LAST_SITE, String(siteId));
export const rememberedSite = (): number | null => {
  const value = Number(stored(LAST_SITE));
  return Number.isInteger(value) && value > 0 ? value : null;
};

const WALK_DISMISSED = 'manager.onboardingDismissed';
export const dismissOnboarding = () => store(WALK_DISMISSED, 'yes');
export const onboardingDismissed = () => stored(WALK_DISMISSED) === 'yes';

/** The site agents that checked in, read again every 15 seconds. */
export const useAgents = () =>
  useQuery({
    queryKey: ['agents'],
    queryFn: () => api.get('/agents'),
    refetchInterval: (q) => (q.state.status === 'error' ? false : 15_000),
  });
