import { ConfirmButton, DataTable, type Column } from '@app/web-kit';
import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
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
  ListPager,
  notifyError,
  notifyOk,
  PageTitle,
  QueryView,
  StatusBadge,
} from '../components/common.tsx';
import { Icon } from '../components/icons.tsx';
import { SlotKey } from '../components/SlotKey.tsx';
import { PhraseScreenshot } from '../components/PhraseScreenshot.tsx';
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
import { GettingStarted } from '../components/GettingStarted.tsx';
import { useAuth } from '../auth.tsx';
import { NotForYourRole } from '../components/NotForYourRole.tsx';

const LIMIT = 50;
export function Review() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const manage = useAuth().can('manage');
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
  const [selected, setSelected] = useState<ReadonlySet<string | number>>(new Set());
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
    mutationFn: (next: PhraseStatus) => api.patch('/textnodes/status', { body: { ids, status: next } }),
    onSuccess: (result, next) => done(`${result.updated} phrase(s) set to ${next}`),
    onError: (error) => notifyError(error),
  });
  const remove = async () => {
    try {
      const result = await api.post('/textnodes/bulk-delete', {
        body: { ids },
      });
      await done(`${result.deleted} phrase(s) deleted`);
    } catch (error) {
      notifyError(error);
    }
  };

  const ids = [...selected].map(Number);
  const columns = reviewColumns({ filterByUrl: setUrl, edit: manage ? setEditing : undefined });
  const c = counts.data;

  return (
    <>
      <PageTitle
        actions={
          manage && status === 'pending' && c && c.pending > 0 ? (
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
      <GettingStarted />
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
        {!manage && (
          <NotForYourRole>approving, trashing, deleting and editing phrases, and AI jobs</NotForYourRole>
        )}
        {manage && (
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
                onClick={() => navigate('/ai', { state: { ids } })}
              >
                Translate with AI
              </Button>
            </Group>
          </Paper>
        )}
        <QueryView query={rows} label="Loading phrases…">
          {(data) =>
            data.rows.length === 0 ? (
              <Text c="dimmed" py="lg" ta="center">
                {status === 'pending' && !searchParam && !url
                  ? 'Nothing to review. New phrases appear here when pages with the client script are visited.'
                  : 'No phrases match.'}
              </Text>
            ) : (
              <DataTable
                data-testid="review-table"
                rows={data.rows}
                rowKey={(row) => row.id}
                rowLabel={(row) => `"${row.key}"`}
                rowAttributes={(row) => ({ 'data-phrase-id': String(row.id) })}
                columns={columns}
                selection={manage ? { selected, onChange: setSelected } : undefined}
              />
            )
          }
        </QueryView>
        <ListPager total={rows.data?.total ?? 0} limit={LIMIT} noun="phrases" />
      </Stack>
      {editing && <KeyEditor row={editing} onClose={() => setEditing(null)} />}
    </>
  );
}

function reviewColumns(actions: {
  filterByUrl: (url: string) => void;
  /** Absent for a role that may not edit keys. */
  edit?: (row: Row) => void;
}): Array<Column<Row>> {
  const { edit } = actions;
  return [
    {
      key: 'phrase',
      header: 'Phrase',
      phone: 'title',
      cell: (row) =>
        row.hasScreenshot ? (
          <Stack gap={4}>
            <SlotKey text={row.key} lineClamp={3} words={row.slotTexts} />
            <PhraseScreenshot phraseId={row.id} phrase={row.key} />
          </Stack>
        ) : (
          <SlotKey text={row.key} lineClamp={3} words={row.slotTexts} />
        ),
    },
    {
      key: 'context',
      header: 'Context',
      phone: 'hidden',
      cell: (row) => (
        <Text size="xs" c="dimmed" lineClamp={2}>
          {row.context || '—'}
        </Text>
      ),
    },
    {
      key: 'pages',
      header: 'Pages',
      phone: 'hidden',
      cell: (row) =>
        row.urls.length > 0 ? (
          <Tooltip label={row.urls.join('\n')} multiline maw={420}>
            <Anchor
              size="xs"
              component="button"
              type="button"
              onClick={() => actions.filterByUrl(row.urls[0]!)}
            >
              {shortUrl(row.urls[0]!)}
              {row.urls.length > 1 ? ` +${row.urls.length - 1}` : ''}
            </Anchor>
          </Tooltip>
        ) : (
          <Text size="xs" c="dimmed">
            —
          </Text>
        ),
    },
    { key: 'status', header: 'Status', cell: (row) => <StatusBadge status={row.status} /> },
    {
      key: 'actions',
      header: '',
      cell: (row) => (
        <Group gap={4} wrap="nowrap">
          {edit && (
            <Tooltip label="Edit key">
              <ActionIcon variant="subtle" aria-label={`Edit key "${row.key}"`} onClick={() => edit(row)}>
                <Icon name="edit" />
              </ActionIcon>
            </Tooltip>
          )}
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
      ),
    },
  ];
}

export function shortUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search || '/';
  } catch {
    return url;
  }
}
