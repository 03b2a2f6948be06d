import { Type } from 'typebox';
import { DateTime, Nullable } from '../../common/schemas.ts';
import { RANGES, SORTS } from '../../metrics/metrics-history.ts';

const literals = (values: string[]) => values.map((value) => Type.Literal(value));

export const RangeQuery = Type.Object({
  range: Type.Optional(
    Type.Union(literals(Object.keys(RANGES)), {
      default: '24h',
      description: '1h and 24h: 1-minute samples; 7d and 60d: hourly averages',
    }),
  ),
});

const Figures = {
  cpuCores: Nullable(Type.Number({ description: 'CPUs kept busy' })),
  cpuPercent: Nullable(Type.Number({ description: 'of the CPUs allocated (a node: it has)' })),
  memoryBytes: Nullable(Type.Number()),
  memoryPercent: Nullable(Type.Number({ description: 'of the memory allocated' })),
  diskBytes: Nullable(Type.Number()),
  diskPercent: Nullable(Type.Number({ description: 'of the root disk allocated' })),
  netInBytesPerSecond: Nullable(Type.Number()),
  netOutBytesPerSecond: Nullable(Type.Number()),
};

export const MetricPointSchema = Type.Object({ at: DateTime, ...Figures });

export const MetricsHistorySchema = Type.Object({
  range: Type.String(),
  resolutionSeconds: Type.Integer(),
  points: Type.Array(MetricPointSchema, {
    description: 'oldest first; null where the node does not report it',
  }),
});

export const TopQuery = Type.Object({
  sort: Type.Optional(Type.Union(literals(Object.keys(SORTS)), { default: 'cpu' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20 })),
});

export const ConsumerSchema = Type.Object({
  containerId: Type.Integer(),
  hostname: Type.String(),
  nodeName: Type.String(),
  lastAccessedAt: Nullable(Type.String({ description: 'last traffic through one of its services' })),
  ...MetricPointSchema.properties,
});
