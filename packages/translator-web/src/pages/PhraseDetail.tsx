import { Anchor, Breadcrumbs, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { PageTitle, QueryView, StatusBadge } from '../components/common.tsx';
import { SlotKey } from '../components/SlotKey.tsx';
import { useLanguages } from '../data/project.ts';
import { usePhraseDetail } from '../data/analytics.ts';

export function PhraseDetailPage() {
  const { id } = useParams();
  const languages = useLanguages();
  const detail = usePhraseDetail(id);
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
              <Table data-testid="phrase-translations">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={180}>Language</Table.Th>
                    <Table.Th>Translation</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {p.translations.map((t) => (
                    <Table.Tr key={t.lang}>
                      <Table.Td>
                        <Anchor component={Link} to={`/translations?lang=${t.lang}`} size="sm">
                          {languages.data?.find((l) => l.code === t.lang)?.name ?? t.lang} ({t.lang})
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <SlotKey text={t.value} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Stack>
        )}
      </QueryView>
    </>
  );
}
