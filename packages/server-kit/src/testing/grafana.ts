import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DASHBOARD = fileURLToPath(new URL('../../../../docs/grafana-dashboard.json', import.meta.url));
/** Metric names as the dashboard's queries write them (PromQL functions and labels never take these forms). */
const METRIC = /\b(?:http|cache|sse|manager|translator|process|nodejs)_[a-z0-9_]+\b(?=\s*[{[)])/g;

/** Every metric name the sample Grafana dashboard (docs/grafana-dashboard.json) queries. */
export function dashboardMetrics(): string[] {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    panels: { targets: { expr: string }[] }[];
  };
  const names = dashboard.panels.flatMap((panel) =>
    panel.targets.flatMap((target) => target.expr.match(METRIC) ?? []),
  );
  return [...new Set(names)].sort();
}

/** Those of `names` a Prometheus exposition does not declare (`# TYPE`), histogram series counted as theirs. */
export function undeclaredMetrics(names: string[], exposition: string): string[] {
  const declared = new Set([...exposition.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]));
  return names.filter(
    (name) => !declared.has(name) && !declared.has(name.replace(/_(bucket|sum|count)$/, '')),
  );
}
