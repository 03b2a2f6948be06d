import { DataTable, type Column } from '@app/web-kit';
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  MultiSelect,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { api, type Row, type QueryOf } from '../api.ts';
import {
  errorMessage,
  notifyError,
  ListPager,
  PageTitle,
  QueryView,
  StatusBadge,
} from '../components/common.tsx';
import { Icon } from '../components/icons.tsx';
import { SlotKey, slotsOf, slotToken } from '../components/SlotKey.tsx';
import { PhraseScreenshot } from '../components/PhraseScreenshot.tsx';
import { useLanguages } from '../data/project.ts';
import {
  phraseStatusParam,
  SEARCH_FIELDS,
  searchFieldParam,
  usePageParam,
  useParam,
} from '../list-params.ts';
import { rowKeys, useRows, useRowsBeside } from '../data/phrases.ts';
import { analyticsKeys } from '../data/analytics.ts';
import { STATE_FILTER, StateChip, translationStateParam } from '../components/TranslationState.tsx';
import { HistoryPanel } from '../components/HistoryPanel.tsx';
import { QualityNotes } from '../components/QualityChecks.tsx';
import { MemoryMatches } from '../components/MemoryMatches.tsx';
import { OutdatedNote } from '../components/OutdatedNote.tsx';
import { useAuth } from '../auth.tsx';

/** The grid's state filter: the translation states, and outdated translations. */
const GRID_STATE_FILTER = [...STATE_FILTER, { value: 'outdated', label: 'Outdated' }];

const LIMIT = 50;
/** How many languages the grid shows beside its own. */
const MAX_BESIDE = 3;

export function Grid() {
  const languages = useLanguages();
  const [langParam, setLang] = useParam('lang');
  const [status, setStatus] = useParam('status', 'approved');
  const [untranslated, setUntranslated] = useParam('untranslated');
  const [state, setState] = useParam('state', 'all');
  const [page] = usePageParam();
  const [field, setField] = useParam('field', 'all');
  const [searchParam, setSearchParam] = useParam('q');
  const [search, setSearch] = useState(searchParam);
  const [debounced] = useDebouncedValue(search, 300);
  const lang = langParam || languages.data?.[0]?.code || '';
  const [besideParam, setBeside] = useParam('beside');
  const configured = new Set(languages.data?.map((l) => l.code));
  const beside = besideParam
    .split(',')
    .filter((code) => code !== lang && configured.has(code))
    .slice(0, MAX_BESIDE);

  useEffect(() => {
    if (debounced !== searchParam) setSearchParam(debounced);
  }, [debounced]);

  const params: QueryOf<'get', '/translations/all'> = {
    lang,
    status: phraseStatusParam(status),
    translated: untranslated ? 'no' : undefined,
    state: translationStateParam(state),
    outdated: state === 'outdated' ? 'yes' : undefined,
    search: searchParam || undefined,
    search_field: searchParam ? searchFieldParam(field) : undefined,
    page,
    limit: LIMIT,
  };
  const rows = useRows('grid', params, !!lang);
  const besideRows = useRowsBeside(beside, rows.data?.rows.map((row) => row.id) ?? []);

  return (
    <>
      <PageTitle>Translations</PageTitle>
      <QueryView query={languages} label="Loading languages…">
        {(list) =>
          list.length === 0 ? (
            <Alert color="blue" title="No languages yet">
              Add the languages you translate into in{' '}
              <Anchor component={Link} to="/settings">
                Settings
              </Anchor>
              .
            </Alert>
          ) : (
            <Stack gap="sm">
              <Group gap="xs" align="flex-end" wrap="wrap">
                <Select
                  label="Language"
                  data={list.map((l) => ({ value: l.code, label: `${l.name} (${l.code})` }))}
                  value={lang}
                  onChange={(value) => setLang(value ?? '')}
                  allowDeselect={false}
                  w={200}
                />
                {list.length > 1 && (
                  <MultiSelect
                    label="Side by side with"
                    placeholder={beside.length ? undefined : 'Other languages'}
                    data={list
                      .filter((l) => l.code !== lang)
                      .map((l) => ({ value: l.code, label: `${l.name} (${l.code})` }))}
                    value={beside}
                    onChange={(codes) => setBeside(codes.join(','))}
                    maxValues={MAX_BESIDE}
                    clearable
                    w={260}
                  />
                )}
                <Select
                  label="Phrases"
                  data={[
                    { value: 'approved', label: 'Approved' },
                    { value: 'pending', label: 'Pending' },
                    { value: 'all', label: 'All' },
                  ]}
                  value={status}
                  onChange={(value) => setStatus(value ?? 'approved')}
                  allowDeselect={false}
                  w={130}
                />
                <Select
                  label="State"
                  data={GRID_STATE_FILTER}
                  value={state}
                  onChange={(value) => setState(value ?? 'all')}
                  allowDeselect={false}
                  w={130}
                />
                <TextInput
                  label="Search"
                  placeholder="Search"
                  value={search}
                  onChange={(event) => setSearch(event.currentTarget.value)}
                  style={{ flex: '1 1 200px' }}
                />
                <Select
                  label="In"
                  data={SEARCH_FIELDS}
                  value={field}
                  onChange={(value) => setField(value ?? 'all')}
                  allowDeselect={false}
                  w={140}
                />
                <Switch
                  label="Untranslated only"
                  checked={!!untranslated}
                  onChange={(event) => setUntranslated(event.currentTarget.checked ? '1' : '')}
                  mb={8}
                />
              </Group>
              <QueryView query={rows} label="Loading translations…">
                {(data) =>
                  data.rows.length === 0 ? (
                    <Text c="dimmed" ta="center" py="lg">
                      {untranslated ? 'Everything here is translated.' : 'No phrases match.'}
                    </Text>
                  ) : (
                    <DataTable
                      data-testid="grid-table"
                      rows={data.rows}
                      rowKey={(row) => `${lang}:${row.id}`}
                      rowAttributes={(row) => ({ 'data-phrase-id': String(row.id) })}
                      columns={gridColumns(lang, besideRows)}
                    />
                  )
                }
              </QueryView>
              <ListPager total={rows.data?.total ?? 0} limit={LIMIT} noun="phrases" />
            </Stack>
          )
        }
      </QueryView>
    </>
  );
}

/** The phrase, its translation into `lang`, and its row in each language shown beside it. */
const gridColumns = (lang: string, beside: Map<string, Map<number, Row>>): Array<Column<Row>> => [
  { key: 'phrase', header: 'Phrase', phone: 'title', cell: (row) => <PhraseCell row={row} /> },
  {
    key: 'translation',
    header: `Translation (${lang})`,
    phone: 'wide',
    cell: (row) => <TranslationEditor row={row} lang={lang} />,
  },
  ...[...beside].map(([code, rows]): Column<Row> => ({
    key: `translation-${code}`,
    header: `Translation (${code})`,
    phone: 'wide',
    cell: (row) => {
      const other = rows.get(row.id);
      if (!other)
        return (
          <Text size="xs" c="dimmed">
            Loading…
          </Text>
        );
      return (
        <Stack gap={4}>
          {other.state && <StateChip state={other.state} />}
          <TranslationEditor row={other} lang={code} />
        </Stack>
      );
    },
  })),
];

function PhraseCell({ row }: { row: Row }) {
  return (
    <Stack gap={4}>
      <SlotKey text={row.key} words={row.slotTexts} />
      {row.hasScreenshot && <PhraseScreenshot phraseId={row.id} phrase={row.key} />}
      <Group gap={6}>
        {row.state && <StateChip state={row.state} />}
        {row.status !== 'approved' && <StatusBadge status={row.status} />}
        {row.context && (
          <Text size="xs" c="dimmed" lineClamp={1}>
            {row.context}
          </Text>
        )}
      </Group>
    </Stack>
  );
}

/** A phrase's translation in `lang`, edited in place: saved with Enter or Save, deleted with ×. */
function TranslationEditor({ row, lang }: { row: Row; lang: string }) {
  const queryClient = useQueryClient();
  const { can } = useAuth();
  const [value, setValue] = useState(row.value ?? '');
  const [showHistory, setShowHistory] = useState(false);
  // The memory is asked once the field is first focused, not for every row on the page.
  const [focused, setFocused] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const { translationId, state, suggestion, outdatedFrom } = row;
  useEffect(() => setValue(row.value ?? ''), [row.value]);
  const dirty = value !== (row.value ?? '');
  // Slots the field lacks: buttons insert them, and once something is typed they are an error.
  const absent = slotsOf(row.key).filter((slot) => !value.includes(slotToken(slot)));
  const missing = value.trim() ? absent : [];
  // The server refuses a translation that loses a slot: it is not sent, the field says why.
  const savable = dirty && value.trim() !== '' && missing.length === 0;
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: rowKeys.all }),
      queryClient.invalidateQueries({ queryKey: analyticsKeys.all }),
    ]);
  // Said beside the cell instead of in a toast: saving row after row would stack them over the grid.
  const [done, setDone] = useState<'Saved' | 'Deleted' | 'Reviewed' | null>(null);
  const save = useMutation({
    mutationFn: (_next: { moveOn: boolean }) =>
      api.post('/translations', { body: { lang, translations: [{ id: row.id, value }] } }),
    onSuccess: async (_result, { moveOn }) => {
      setDone('Saved');
      // Enter saves and goes on to the next phrase, as in a CAT tool; a failed save stays put.
      if (moveOn) focusNextField(field.current);
      await refresh();
    },
  });
  /** Puts a slot token where the cursor is (at the end when the field was never focused). */
  const insert = (token: string) => {
    const at = field.current?.selectionStart ?? value.length;
    const end = field.current?.selectionEnd ?? at;
    setValue(value.slice(0, at) + token + value.slice(end));
    setDone(null);
    requestAnimationFrame(() => {
      field.current?.focus();
      field.current?.setSelectionRange(at + token.length, at + token.length);
    });
  };
  const review = useMutation({
    mutationFn: (id: number) => api.patch('/translations/state', { body: { ids: [id], state: 'reviewed' } }),
    onSuccess: async () => {
      setDone('Reviewed');
      await refresh();
    },
    onError: (error) => notifyError(error),
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.delete('/translations/{id}', { path: { id } }),
    onSuccess: async () => {
      setDone('Deleted');
      setValue('');
      await refresh();
    },
    onError: (error) => notifyError(error),
  });
  return (
    <Stack gap={4}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (savable) save.mutate({ moveOn: false });
        }}
      >
        {/* On a phone (below sm, where the table turns into cards) the field takes its own line, the
            buttons go below it. */}
        <Group gap={6} align="flex-start">
          <Textarea
            ref={field}
            data-translation-field
            aria-label={`Translation of "${row.key}" (${lang})`}
            autosize
            minRows={1}
            placeholder="Not translated"
            readOnly={!can('translate')}
            value={value}
            onFocus={() => setFocused(true)}
            onChange={(event) => {
              setValue(event.currentTarget.value);
              setDone(null);
              if (save.error) save.reset();
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                if (savable) save.mutate({ moveOn: true });
                else if (!dirty) focusNextField(field.current);
              }
              if (event.key === 'Escape') setValue(row.value ?? '');
            }}
            description={
              done ? (
                <span role="status" data-testid="cell-done">
                  {done}
                </span>
              ) : undefined
            }
            error={
              save.error
                ? errorMessage(save.error)
                : missing.length
                  ? `Missing slot ${missing.map(slotToken).join(' ')}`
                  : undefined
            }
            flex={{ base: '1 1 100%', sm: '1 1 16rem' }}
          />
          {can('translate') && (
            <Button type="submit" size="xs" mt={4} disabled={!savable} loading={save.isPending}>
              Save
            </Button>
          )}
          {can('review') && translationId !== null && (state !== 'reviewed' || outdatedFrom !== null) && (
            <Button
              size="xs"
              mt={4}
              variant="light"
              color="green"
              disabled={dirty}
              loading={review.isPending}
              onClick={() => review.mutate(translationId)}
              aria-label={`Review the ${lang} translation of "${row.key}"`}
            >
              Review
            </Button>
          )}
          <Tooltip label="History">
            <ActionIcon
              mt={6}
              variant={showHistory ? 'light' : 'subtle'}
              aria-label={`History of the ${lang} translation of "${row.key}"`}
              aria-expanded={showHistory}
              onClick={() => setShowHistory((shown) => !shown)}
            >
              <Icon name="history" />
            </ActionIcon>
          </Tooltip>
          {can('translate') && translationId !== null && (
            <Tooltip label="Delete translation">
              <ActionIcon
                mt={6}
                variant="subtle"
                color="red"
                aria-label={`Delete the ${lang} translation of "${row.key}"`}
                loading={remove.isPending}
                onClick={() => remove.mutate(translationId)}
              >
                <Icon name="close" />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </form>
      {can('translate') && absent.length > 0 && (
        <Group gap={4} data-testid="slot-buttons">
          {absent.map((slot) => (
            <Button
              key={slotToken(slot)}
              size="compact-xs"
              variant="light"
              onClick={() => insert(slotToken(slot))}
              aria-label={`Insert ${slotToken(slot)} into the ${lang} translation of "${row.key}"`}
            >
              + {slotToken(slot)}
            </Button>
          ))}
        </Group>
      )}
      {outdatedFrom !== null && <OutdatedNote before={outdatedFrom} after={row.key} />}
      {!dirty && <QualityNotes issues={row.checks} label={`the ${lang} translation of "${row.key}"`} />}
      {suggestion && (
        <Group gap={6} wrap="nowrap" data-testid="ai-suggestion">
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            AI suggestion: {suggestion}
          </Text>
          {can('translate') ? (
            <Button size="compact-xs" variant="subtle" onClick={() => setValue(suggestion)}>
              Use
            </Button>
          ) : null}
        </Group>
      )}
      <MemoryMatches
        text={row.key}
        lang={lang}
        current={value}
        active={focused}
        onUse={
          can('translate')
            ? (match) => {
                setValue(match);
                setDone(null);
                field.current?.focus();
              }
            : undefined
        }
      />
      {showHistory && (
        <HistoryPanel phraseId={row.id} lang={lang} label={`the ${lang} translation of "${row.key}"`} />
      )}
    </Stack>
  );
}

/** Moves the focus to the translation field after `current` in the grid, if there is one. */
function focusNextField(current: HTMLTextAreaElement | null) {
  const fields = [...document.querySelectorAll<HTMLTextAreaElement>('textarea[data-translation-field]')];
  const next = fields[fields.indexOf(current!) + 1];
  next?.focus();
}
