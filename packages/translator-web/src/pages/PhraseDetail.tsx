import { LocalDataTable, type Column } from '@app/web-kit';
import { Anchor, Breadcrumbs, Group, Paper, Stack, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import type { PhraseDetail } from '../api.ts';
import { PageTitle, QueryView, StatusBadge } from '../components/common.tsx';
import { SlotKey } from '../components/SlotKey.tsx';
import { useLanguages } from '../data/project.ts';
import { usePhraseDetail } from '../data/analytics.ts';

export function PhraseDetailPage() {
  const { id } = useParams();
  const languages = useLanguages();
  const detail = usePhraseDetail(id);
  const languageName = (code: string) => languages.data?.find((l) => l.code === code)?.name ?? code;
  const columns: Array<Column<PhraseDetail['translations'][number]>> = [
    {
      key: 'language',
      header: 'Language',
      phone: 'title',
      sortValue: (t) => languageName(t.lang),
      cell: (t) => (
        <Anchor component={Link} to={`/translations?lang=${t.lang}`} size="sm">
          {languageName(t.lang)} ({t.lang})
        </Anchor>
      ),
    },
    { key: 'translation', header: 'Translation', cell: (t) => <SlotKey text={t.value} /> },
  ];
  return (
    <>
      <Breadcrumbs mb="xs">
        <Anchor component={Link} to="/review" size="sm">
          Review
        </Anchor>
        <Text size="sm">Phrase {id}</Text>
      </Breadcrumbs>
      <PageTitle>Phrase</PageTitle>
      <QueryView query={detail} label="Loading phrase…">
        {(p) => (
          <Stack>
            <Paper withBorder p="md">
              <Stack gap="xs">
                <SlotKey text={p.key} />
                <Group gap="xs">
                  <StatusBadge status={p.status} />
                  <Text size="xs" c="dimmed">
                    Context: {p.context || '—'}
                  </Text>
                </Group>
              </Stack>
            </Paper>
            {p.translations.length === 0 ? (
              <Text c="dimmed">No translations yet.</Text>
            ) : (
              <LocalDataTable
                data-testid="phrase-translations"
                sort={{ key: 'language', direction: 'ascending' }}
                rows={p.translations}
                rowKey={(t) => t.lang}
                columns={columns}
              />
            )}
          </Stack>
        )}
      </QueryView>
    </>
  );
}
