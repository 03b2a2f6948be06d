import { Card, Group, SegmentedControl, SimpleGrid, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import {
  METRICS_RANGES,
  useMetricsHistory,
  type MetricPoint,
  type MetricsRange,
  type MetricsSubject,
} from '../api/metrics.ts';
import { EmptyState } from './basics.tsx';
import { formatBytes, QueryState } from './common.tsx';
import { cpusText, percentText, rateText } from './metric-format.ts';

type Figure = Exclude<keyof MetricPoint, 'at'>;
type Row = MetricPoint & { t: number };

/** A share of the allocation with its absolute value, e.g. "25 % (256 MiB)". */
const shareOf = (pct: Figure, absolute: (row: MetricPoint) => string) => (row: MetricPoint) =>
  row[pct] === null ? 'not reported' : `${percentText(row[pct])} (${absolute(row)})`;

interface Chart {
  title: string;
  lines: Array<{ key: Figure; name: string; color: string; dashed?: boolean }>;
  /** Percentages are drawn on a 0–100 axis; rates on one of bytes per second. */
  unit: 'percent' | 'rate';
  /** The latest value, as the caption states it. */
  latest: (row: MetricPoint) => string;
}

const CHARTS: Chart[] = [
  {
    title: 'CPU',
    lines: [{ key: 'cpuPercent', name: 'CPU', color: '#1c7ed6' }],
    unit: 'percent',
    latest: shareOf('cpuPercent', (row) => cpusText(row.cpuCores)),
  },
  {
    title: 'Memory',
    lines: [{ key: 'memoryPercent', name: 'Memory', color: '#2f9e44' }],
    unit: 'percent',
    latest: shareOf('memoryPercent', (row) => formatBytes(row.memoryBytes)),
  },
  {
    title: 'Disk',
    lines: [{ key: 'diskPercent', name: 'Disk', color: '#e8590c' }],
    unit: 'percent',
    latest: shareOf('diskPercent', (row) => formatBytes(row.diskBytes)),
  },
  {
    title: 'Network',
    lines: [
      { key: 'netInBytesPerSecond', name: 'In', color: '#7048e8' },
      { key: 'netOutBytesPerSecond', name: 'Out', color: '#c2255c', dashed: true },
    ],
    unit: 'rate',
    latest: (row) => `in ${rateText(row.netInBytesPerSecond)}, out ${rateText(row.netOutBytesPerSecond)}`,
  },
];

const hourly = (range: MetricsRange) => range === '7d' || range === '60d';
const timeLabel = (range: MetricsRange) => (t: number) =>
  new Date(t).toLocaleString(
    undefined,
    hourly(range)
      ? { month: 'short', day: 'numeric', hour: '2-digit' }
      : { hour: '2-digit', minute: '2-digit' },
  );

function MetricChart({ chart, rows, range }: { chart: Chart; rows: Row[]; range: MetricsRange }) {
  const format = chart.unit === 'percent' ? percentText : rateText;
  return (
    <Card withBorder padding="sm" component="figure" m={0} data-chart={chart.title}>
      <Text component="figcaption" size="sm" mb="xs">
        <b>{chart.title}</b> · latest <span data-testid="latest">{chart.latest(rows.at(-1)!)}</span>
      </Text>
      <div style={{ width: '100%', height: 180 }}>
        <ResponsiveContainer>
          <LineChart data={rows}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis
              dataKey="t"
              type="number"
              scale="time"
              domain={['dataMin', 'dataMax']}
              tickFormatter={timeLabel(range)}
              minTickGap={40}
              fontSize={12}
            />
            {chart.unit === 'percent' ? (
              <YAxis domain={[0, 100]} unit="%" fontSize={12} width={48} />
            ) : (
              <YAxis tickFormatter={(value: number) => formatBytes(value)} fontSize={12} width={64} />
            )}
            <Tooltip
              labelFormatter={(t) => timeLabel(range)(Number(t))}
              formatter={(value) => format(typeof value === 'number' ? value : null)}
            />
            {chart.lines.length > 1 ? <Legend /> : null}
            {chart.lines.map((line) => (
              <Line
                key={line.key}
                type="monotone"
                dataKey={line.key}
                name={line.name}
                stroke={line.color}
                strokeDasharray={line.dashed ? '6 3' : undefined}
                dot={rows.length === 1}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </Card>
  );
}

/** A node's or container's CPU, memory, disk and network over a chosen time range. */
export function MetricsGraph({
  siteId,
  subject,
  id,
}: {
  siteId: number;
  subject: MetricsSubject;
  id: number;
}) {
  const [range, setRange] = useState<MetricsRange>('24h');
  const history = useMetricsHistory(siteId, subject, id, range);
  return (
    <section aria-labelledby="metrics-title" data-testid="metrics">
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Title order={3} size="h4" id="metrics-title">
          Usage history
        </Title>
        <SegmentedControl
          aria-label="Time range"
          value={range}
          onChange={(value) => setRange(value as MetricsRange)}
          data={METRICS_RANGES}
        />
      </Group>
      <QueryState query={history} isEmpty={() => false}>
        {(data) => {
          const rows = data.points.map((point) => ({ ...point, t: Date.parse(point.at) }));
          const shown = data.range as MetricsRange;
          if (rows.length === 0)
            return (
              <EmptyState title="No samples yet">
                {hourly(shown)
                  ? `The last ${shown} are shown as hourly averages (one point every ${data.resolutionSeconds} s); the first appears once a whole hour has been sampled.`
                  : `Sampled every ${data.resolutionSeconds} s; the first sample appears within that time.`}
              </EmptyState>
            );
          return (
            <>
              <Text size="sm" c="dimmed" mb="xs" data-testid="metrics-range" data-range={shown}>
                {rows.length} {rows.length === 1 ? 'point' : 'points'} over the last {shown}, one every{' '}
                {data.resolutionSeconds} s; latest at {new Date(rows.at(-1)!.t).toLocaleString()}.
              </Text>
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                {CHARTS.map((chart) => (
                  <MetricChart key={chart.title} chart={chart} rows={rows} range={shown} />
                ))}
              </SimpleGrid>
            </>
          );
        }}
      </QueryState>
    </section>
  );
}
