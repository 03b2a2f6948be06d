import { Select, type SelectProps } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { containersQuery } from '../../api/containers.ts';
import { nodesQuery, useSites } from '../../api/fleet.ts';
import type { AlertRule } from '../../api/types.ts';

/** The scopes whose rules name one site, node or container (by its id). */
export type TargetScope = 'site' | 'node' | 'container';

export const isTargetScope = (scope: AlertRule['scope']): scope is TargetScope =>
  scope === 'site' || scope === 'node' || scope === 'container';

interface Target {
  id: number;
  name: string;
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
  return {
    site: sites.map((site) => ({ id: site.id, name: site.name, site: site.name })),
    node: sites.flatMap((site, i) =>
      (nodes[i]?.data ?? []).map((node) => ({ id: node.id, name: node.name, site: site.name })),
    ),
    container: sites.flatMap((site, i) =>
      (containers[i]?.data ?? []).map((c) => ({ id: c.id, name: c.hostname, site: site.name })),
    ),
  };
}

/** How a rule's scope reads: "container web1" (or its id while the name is not known). */
export function scopeLabel(rule: AlertRule, targets: ScopeTargets, everything: string): string {
  if (!isTargetScope(rule.scope) || rule.scopeId === null) return everything;
  const target = targets[rule.scope].find((t) => t.id === rule.scopeId);
  return `${rule.scope} ${target?.name ?? `#${rule.scopeId}`}`;
}

/**
 * A searchable pick of the scope's site, node or container by name (nodes and containers grouped by
 * site). Text typed and left without choosing is taken when it is exactly one name, and otherwise
 * refused at the field: a rule never names something other than what the user meant.
 */
export function ScopeTargetSelect({
  scope,
  targets,
  value,
  onChange,
  error,
  onRefuse,
}: {
  scope: TargetScope;
  targets: ScopeTargets;
  value: string;
  onChange: (value: string) => void;
  error: SelectProps['error'];
  onRefuse: (message: string) => void;
}) {
  const [typed, setTyped] = useState('');
  const choices = targets[scope];
  const option = (t: Target) => ({ value: String(t.id), label: t.name });
  const data =
    scope === 'site'
      ? choices.map(option)
      : [...new Set(choices.map((t) => t.site))].map((site) => ({
          group: site,
          items: choices.filter((t) => t.site === site).map(option),
        }));
  const settle = () => {
    const text = typed.trim();
    if (!text || choices.some((t) => String(t.id) === value && t.name === text)) return;
    const named = choices.filter((t) => t.name.toLowerCase() === text.toLowerCase());
    if (named.length === 1) onChange(String(named[0]!.id));
    else onRefuse(`No ${scope} is named “${text}”: choose one from the list`);
  };
  return (
    <Select
      label={scope[0]!.toUpperCase() + scope.slice(1)}
      description="Type to search by name"
      required
      searchable
      data={data}
      value={value || null}
      onChange={(picked) => onChange(picked ?? '')}
      onSearchChange={setTyped}
      onBlur={settle}
      nothingFoundMessage={`No ${scope} has that name`}
      error={error}
    />
  );
}
