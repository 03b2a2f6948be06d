import {
  ActionIcon,
  Anchor,
  Button,
  Checkbox,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, type PhraseStatus, type Row, type QueryOf } from '../api.ts';
import {
  ConfirmButton,
  ListPager,
  notifyError,
  notifyOk,
  PageTitle,
  QueryView,
  StatusBadge,
} from '../components/common.tsx';
import { Icon } from '../components/icons.tsx';
import { SlotKey } from '../components/SlotKey.tsx';
import { KeyEditor } from '../components/KeyEditor.tsx';
import {
  phraseStatusParam,
  SEARCH_FIELDS,
  searchFieldParam,
  usePageParam,
  useParam,
} from '../list-params.ts';
import { rowKeys, useRowCounts, useRows } from '../data/phrases.ts';
import { analyticsKeys, useAllUrls } from '../data/analytics.ts';
import { useLanguages } from '../data/project.ts';
import { STATE_FILTER, translationStateParam } from '../components/TranslationState.tsx';

const LIMIT = 50;
export function Review() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [status, setStatus] = useParam('status', 'pending');
  const [page] = usePageParam();
  const [url, setUrl] = useParam('url');
  const [lang, setLang] = useParam('lang');
  const [state, setState] = useParam('state', 'all');
  const languages = useLanguages();
  const [field, setField] = useParam('field', 'all');
  const [searchParam, setSearchParam] = useParam('q');
  const [search, setSearch] = useState(searchParam);
  const [debounced] = useDebouncedValue(search, 300);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [editing, setEditing] = useState<Row | null>(null);

  useEffect(() => {
    if (debounced !== searchParam) setSearchParam(debounced);
  }, [debounced]);

  const counts = useRowCounts();
  const urls = useAllUrls();
  const params: QueryOf<'get', '/translations/all'> = {
    status: phraseStatusParam(status),
    // A translation state is a language's: the state filter applies once a language is picked.
    lang: lang || undefined,
    state: lang ? translationStateParam(state) : undefined,
    // The API has one search: a URL filter searches the URL field, else the text search applies.
    search: url || searchParam || undefined,
    search_field: url ? 'url' : searchParam ? searchFieldParam(field) : undefined,
    page,
    limit: LIMIT,
  };
  const rows = useRows('review', params);

  useEffect(() => setSelected(new Set()), [status, page, url, searchParam, field, lang, state]);

  const done = async (message: string) => {
    notifyOk(message);
    setSelected(new Set());
    await queryClient.invalidateQueries({ queryKey: rowKeys.all });
    await queryClient.invalidateQueries({ queryKey: analyticsKeys.all });
  };
  const setStatusOf = useMutation({
    mutationFn: (next: PhraseStatus) =>
      api.patch('/textnodes/status', { body: { ids: [...selected], status: next } }),
    onSuccess: (result, next) => done(`${result.updated} phrase(s) set to ${next}`),
    onError: (error) => notifyError(error),
  });
  const remove = async () => {
    try {
      const result = await api.post('/textnodes/bulk-delete', {
        body: {
          ids: [...selected],
        },
      });
      await done(`${result.deleted} phrase(s) deleted`);
    } catch (error) {
      notifyError(error);
    }
  };

  const rowsOnPage = rows.data?.rows ?? [];
  const allSelected = rowsOnPage.length > 0 && rowsOnPage.every((row) => selected.has(row.id));
  const toggle = (id: number) =>
    setSelected((current) => {
      const copy = new Set(current);
      if (copy.has(id)) copy.delete(id);
      else copy.add(id);
      return copy;
    });
  const c = counts.data;

  return (
    <>
      <PageTitle
        actions={
          status === 'pending' && c && c.pending > 0 ? (
            <ConfirmButton
              size="xs"
              title="Delete every pending phrase?"
              message={`All ${c.pending} pending phrases are deleted. Pages register them again when visited.`}
              confirmLabel="Delete pending"
              onConfirm={async () => {
                try {
                  const result = await api.post('/textnodes/clear-pending');
                  await done(`${result.deleted} pending phrase(s) deleted`);
                } catch (error) {
                  notifyError(error);
                }
              }}
            >
              Clear pending
            </ConfirmButton>
          ) : undefined
        }
      >
        Review phrases
      </PageTitle>
      <Stack gap="sm">
        <SegmentedControl
          aria-label="Status"
          value={status}
          onChange={setStatus}
          data={[
            { value: 'pending', label: `Pending${c ? ` (${c.pending})` : ''}` },
            { value: 'approved', label: `Approved${c ? ` (${c.approved})` : ''}` },
            { value: 'trash', label: `Trash${c ? ` (${c.trash})` : ''}` },
            { value: 'all', label: 'All' },
          ]}
          style={{ alignSelf: 'flex-start', maxWidth: '100%', overflowX: 'auto' }}
        />
        <Group gap="xs" align="flex-end" wrap="wrap">
          <TextInput
            label="Search"
            placeholder={url ? 'Clear the URL filter to search text' : 'Search phrases'}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            disabled={!!url}
            style={{ flex: '1 1 220px' }}
          />
          <Select
            label="In"
            data={SEARCH_FIELDS}
            value={field}
            onChange={(value) => setField(value ?? 'all')}
            allowDeselect={false}
            disabled={!!url}
            w={150}
          />
          <Select
            label="Translation into"
            placeholder="Any language"
            clearable
            data={(languages.data ?? []).map((l) => ({ value: l.code, label: `${l.name} (${l.code})` }))}
            value={lang || null}
            onChange={(value) => setLang(value ?? '')}
            w={190}
          />
          <Select
            label="Translation state"
            data={STATE_FILTER}
            value={state}
            onChange={(value) => setState(value ?? 'all')}
            allowDeselect={false}
            disabled={!lang}
            w={150}
          />
          <Select
            label="Page URL"
            placeholder="All pages"
            searchable
            clearable
            data={(urls.data?.rows ?? []).map((row) => row.url)}
            value={url || null}
            onChange={(value) => setUrl(value ?? '')}
            nothingFoundMessage="No pages registered yet"
            style={{ flex: '1 1 260px' }}
          />
        </Group>
        <Paper withBorder p="xs">
          <Group gap="xs" wrap="wrap">
            <Text size="sm" c="dimmed" aria-live="polite" data-testid="selected-count">
              {selected.size} selected
            </Text>
            <Button
              size="xs"
              color="green"
              disabled={!selected.size}
              loading={setStatusOf.isPending && setStatusOf.variables === 'approved'}
              onClick={() => setStatusOf.mutate('approved')}
            >
              Approve
            </Button>
            <Button
              size="xs"
              variant="light"
              disabled={!selected.size}
              onClick={() => setStatusOf.mutate('pending')}
            >
              Mark pending
            </Button>
            <Button
              size="xs"
              variant="light"
              color="gray"
              disabled={!selected.size}
              onClick={() => setStatusOf.mutate('trash')}
            >
              Trash
            </Button>
            <ConfirmButton
              size="xs"
              disabled={!selected.size}
              title="Delete phrases?"
              message={`${selected.size} phrase(s) and all their translations are deleted. This cannot be undone.`}
              confirmLabel="Delete"
              onConfirm={remove}
            >
              Delete
            </ConfirmButton>
            <Button
              size="xs"
              variant="light"
              color="violet"
              disabled={!selected.size}
              onClick={() => navigate('/ai', { state: { ids: [...selected] } })}
            >
              Translate with AI
            </Button>
          </Group>
        </Paper>
        <QueryView query={rows} label="Loading phrases…">
          {(data) =>
            data.rows.length === 0 ? (
              <Text c="dimmed" py="lg" ta="center">
                {status === 'pending' && !searchParam && !url
                  ? 'Nothing to review. New phrases appear here when pages with the client script are visited.'
                  : 'No phrases match.'}
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={360}>
                <Table striped highlightOnHover verticalSpacing="xs" data-testid="review-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th w={36}>
                        <Checkbox
                          aria-label="Select all on this page"
                          checked={allSelected}
                          indeterminate={!allSelected && rowsOnPage.some((row) => selected.has(row.id))}
                          onChange={() =>
                            setSelected(allSelected ? new Set() : new Set(rowsOnPage.map((row) => row.id)))
                          }
                        />
                      </Table.Th>
                      <Table.Th>Phrase</Table.Th>
                      <Table.Th visibleFrom="sm">Context</Table.Th>
                      <Table.Th visibleFrom="sm">Pages</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th w={90} />
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.rows.map((row) => (
                      <Table.Tr key={row.id} data-phrase-id={row.id}>
                        <Table.Td>
                          <Checkbox
                            aria-label={`Select "${row.key}"`}
                            checked={selected.has(row.id)}
                            onChange={() => toggle(row.id)}
                          />
                        </Table.Td>
                        <Table.Td>
                          <SlotKey text={row.key} lineClamp={3} />
                        </Table.Td>
                        <Table.Td visibleFrom="sm">
                          <Text size="xs" c="dimmed" lineClamp={2}>
                            {row.context || '—'}
                          </Text>
                        </Table.Td>
                        <Table.Td visibleFrom="sm">
                          {row.urls.length > 0 ? (
                            <Tooltip label={row.urls.join('\n')} multiline maw={420}>
                              <Anchor
                                size="xs"
                                component="button"
                                type="button"
                                onClick={() => setUrl(row.urls[0]!)}
                              >
                                {shortUrl(row.urls[0]!)}
                                {row.urls.length > 1 ? ` +${row.urls.length - 1}` : ''}
                              </Anchor>
                            </Tooltip>
                          ) : (
                            <Text size="xs" c="dimmed">
                              —
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <StatusBadge status={row.status} />
                        </Table.Td>
                        <Table.Td>
                          <Group gap={4} wrap="nowrap">
                            <Tooltip label="Edit key">
                              <ActionIcon
                                variant="subtle"
                                aria-label={`Edit key "${row.key}"`}
                                onClick={() => setEditing(row)}
                              >
                                <Icon name="edit" />
                              </ActionIcon>
                            </Tooltip>
                            <Tooltip label="Details and translations">
                              <ActionIcon
                                variant="subtle"
                                component={Link}
                                to={`/analytics/phrases/${row.id}`}
                                aria-label={`Details of "${row.key}"`}
                              >
                                <Icon name="info" />
                              </ActionIcon>
                            </Tooltip>
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )
          }
        </QueryView>
        <ListPager total={rows.data?.total ?? 0} limit={LIMIT} noun="phrases" />
      </Stack>
      {editing && <KeyEditor row={editing} onClose={() => setEditing(null)} />}
    </>
  );
}

export function shortUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search || '/';
  } catch {
    return url;
  }
}
