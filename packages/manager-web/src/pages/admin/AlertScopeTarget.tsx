import { Select, type SelectProps } from '@mantine/core';
import { useState } from 'react';
import { isTargetScope, type ScopeTargets, type Target, type TargetScope } from '../../api/alert-targets.ts';
import type { AlertRule } from '../../api/types.ts';

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
