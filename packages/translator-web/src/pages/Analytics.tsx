import { DataTable, type Column } from '@app/web-kit';
import {
  Anchor,
  Group,
  Pagination,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { type Language, type UrlRow } from '../api.ts';
import { PageTitle, QueryView } from '../components/common.tsx';
import { useLanguages } from '../data/project.ts';
import { useActivity, useCoverage, useQuality, useSummary, useUrls } from '../data/analytics.ts';
import { QUALITY_LABELS } from '../components/QualityChecks.tsx';

export function Analytics() {
  const summary = useSummary();
  return (
    <>
      <PageTitle>Analytics</PageTitle>
      <Stack gap="lg">
        <QueryView query={summary} label="Loading summary…">
          {(s) => (
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" data-testid="summary-cards">
              <Card label="Phrases" value={s.totalPhrases} />
              <Card label="Approved" value={s.approvedPhrases} color="green" />
              <Card label="Pending" value={s.pendingPhrases} color="yellow" />
              <Card label="Trash" value={s.trashPhrases} color="gray" />
              <Card label="Pages" value={s.uniqueUrls} />
              <Card label="Translations" value={s.totalTranslations} />
              <Card label="Languages" value={s.languageCount} />
              <Card label="With slots" value={s.phrasesWithSlots} />
            </SimpleGrid>
          )}
        </QueryView>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <CoveragePanel />
          <ActivityPanel />
          <QualityPanel />
        </SimpleGrid>
        <UrlTable />
      </Stack>
    </>
  );
}

function Card({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} c={color}>
        {value.toLocaleString()}
      </Text>
    </Paper>
  );
}

function CoveragePanel() {
  const coverage = useCoverage();
  const languages = useLanguages();
  const name = (code: string, list: Language[] | undefined) =>
    list?.find((l) => l.code === code)?.name ?? code;
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h5" mb="sm">
        Coverage of approved phrases
      </Title>
      <QueryView query={coverage} label="Loading coverage…">
        {(rows) =>
          rows.length === 0 ? (
            <Text size="sm" c="dimmed">
              No languages configured.
            </Text>
          ) : (
            <Stack gap="sm" data-testid="coverage">
              {rows.map((row) => (
                <div key={row.lang}>
                  <Group justify="space-between" mb={2}>
                    <Anchor component={Link} to={`/translations?lang=${row.lang}&untranslated=1`} size="sm">
                      {name(row.lang, languages.data)} ({row.lang})
                    </Anchor>
                    <Text size="sm" c="dimmed">
                      {row.translated} · {row.coverage}%
                    </Text>
                  </Group>
                  <Progress
                    value={row.coverage}
                    color={row.coverage === 100 ? 'green' : 'indigo'}
                    aria-label={`${row.lang} coverage`}
                  />
                </div>
              ))}
            </Stack>
          )
        }
      </QueryView>
    </Paper>
  );
}

function QualityPanel() {
  const quality = useQuality();
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h5" mb="sm">
        Quality checks
      </Title>
      <QueryView query={quality} label="Loading quality checks…">
        {(q) =>
          q.checked === 0 ? (
            <Text size="sm" c="dimmed">
              No translation of an approved phrase to check yet.
            </Text>
          ) : (
            <Stack gap="sm" data-testid="quality">
              <Group justify="space-between">
                <Text size="sm" fw={600} data-testid="quality-score">
                  {q.score}% pass every check
                </Text>
                <Text size="sm" c="dimmed">
                  {q.passing} of {q.checked} translations
                </Text>
              </Group>
              <Progress
                value={q.score}
                color={q.score >= 90 ? 'green' : 'orange'}
                aria-label="Quality score"
              />
              <Stack gap={2}>
                {q.byCheck
                  .filter((c) => c.failing > 0)
                  .map((c) => (
                    <Group key={c.check} justify="space-between" data-check={c.check}>
                      <Text size="sm">{QUALITY_LABELS[c.check]}</Text>
                      <Text size="sm">{c.failing}</Text>
                    </Group>
                  ))}
              </Stack>
              <Text size="xs" c="dimmed">
                Per language: {q.byLanguage.map((l) => `${l.lang} ${l.score}%`).join(' · ')}
              </Text>
            </Stack>
          )
        }
      </QueryView>
    </Paper>
  );
}

function ActivityPanel() {
  const activity = useActivity();
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h5" mb="sm">
        New phrases, last 30 days
      </Title>
      <QueryView query={activity} label="Loading activity…">
        {(days) => (
          <div
            style={{ width: '100%', height: 220 }}
            role="img"
            aria-label={`${days.reduce((n, d) => n + d.count, 0)} phrases discovered in the last 30 days`}
          >
            <ResponsiveContainer>
              <BarChart data={days} margin={{ top: 4, right: 8, bottom: 0, left: -20 }}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis
                  dataKey="day"
                  tickFormatter={(day: string) => day.slice(5)}
                  fontSize={11}
                  minTickGap={12}
                />
                <YAxis allowDecimals={false} fontSize={11} />
                <Tooltip />
                <Bar dataKey="count" name="Phrases" fill="#4c6ef5" radius={[3, 3, 0, 0]} />
              </BarChart>
            </ResponsiveContainer>
          </div>
        )}
      </QueryView>
    </Paper>
  );
}

const URL_LIMIT = 20;

const URL_COLUMNS: Array<Column<UrlRow>> = [
  {
    key: 'url',
    header: 'URL',
    phone: 'title',
    cell: (row) => (
      <Anchor
        component={Link}
        to={`/analytics/url?url=${encodeURIComponent(row.url)}`}
        size="sm"
        style={{ wordBreak: 'break-all' }}
      >
        {row.url}
      </Anchor>
    ),
  },
  { key: 'phrases', header: 'Phrases', align: 'end', cell: (row) => row.phraseCount },
  { key: 'approved', header: 'Approved', align: 'end', cell: (row) => row.approved },
  { key: 'pending', header: 'Pending', align: 'end', cell: (row) => row.pending },
];

function UrlTable() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(1);
  const params = { search: debounced || undefined, limit: URL_LIMIT, offset: (page - 1) * URL_LIMIT };
  const urls = useUrls(params);
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={3} size="h5">
          Pages
        </Title>
        <TextInput
          size="xs"
          placeholder="Search URLs"
          aria-label="Search URLs"
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          w={260}
        />
      </Group>
      <QueryView query={urls} label="Loading pages…">
        {(data) =>
          data.rows.length === 0 ? (
            <Text size="sm" c="dimmed">
              No pages match.
            </Text>
          ) : (
            <>
              <DataTable
                data-testid="url-table"
                rows={data.rows}
                rowKey={(row) => row.url}
                columns={URL_COLUMNS}
              />
              {data.total > URL_LIMIT && (
                <Group justify="flex-end" mt="sm">
                  <Pagination
                    size="sm"
                    total={Math.ceil(data.total / URL_LIMIT)}
                    value={page}
                    onChange={setPage}
                  />
                </Group>
              )}
            </>
          )
        }
      </QueryView>
    </Paper>
  );
}
