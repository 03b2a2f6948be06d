/** What an alert rule's scope or an alert's subject names: sites, nodes and containers by name. */
import { useQueries } from '@tanstack/react-query';
import { containersQuery } from './containers.ts';
import { nodesQuery, useSites } from './fleet.ts';
import type { AlertRule } from './types.ts';

/** The scopes whose rules name one site, node or container (by its id). */
export type TargetScope = 'site' | 'node' | 'container';

export const isTargetScope = (scope: AlertRule['scope']): scope is TargetScope =>
  scope === 'site' || scope === 'node' || scope === 'container';

export interface Target {
  id: number;
  name: string;
  siteId: number;
  site: string;
}

export type ScopeTargets = Record<TargetScope, Target[]>;

/**
 * The sites, and the nodes or containers of every site when one of `scopes` needs them, by name: the
 * sites are read once, then each site's nodes or containers (the API lists them per site).
 */
export function useScopeTargets(scopes: ReadonlyArray<AlertRule['scope']>): ScopeTargets {
  const sites = useSites().data ?? [];
  const nodes = useQueries({
    queries: sites.map((site) => ({ ...nodesQuery(site.id), enabled: scopes.includes('node') })),
  });
  const containers = useQueries({
    queries: sites.map((site) => ({ ...containersQuery(site.id), enabled: scopes.includes('container') })),
  });
  /** Each site's rows as targets of that site, named by `name`. */
  const perSite = <T extends { id: number }>(
    results: ReadonlyArray<{ data?: T[] | undefined }>,
    name: (row: T) => string,
  ) =>
    sites.flatMap((site, i) =>
      (results[i]?.data ?? []).map((row) => ({
        id: row.id,
        name: name(row),
        siteId: site.id,
        site: site.name,
      })),
    );
  return {
    site: sites.map((site) => ({ id: site.id, name: site.name, siteId: site.id, site: site.name })),
    node: perSite(nodes, (node) => node.name),
    container: perSite(containers, (container) => container.hostname),
  };
}
