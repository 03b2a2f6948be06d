import { ConfirmButton, LocalDataTable, type Column } from '@app/web-kit';
import { Badge, Button, Checkbox, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type GlossaryTerm } from '../api.ts';
import {
  deleteAndRefresh,
  fieldError,
  notifyError,
  notifyOk,
  PageTitle,
  QueryView,
} from '../components/common.tsx';
import { glossaryKeys, useGlossary } from '../data/glossary.ts';
import { rowKeys } from '../data/phrases.ts';
import { analyticsKeys } from '../data/analytics.ts';
import { useLanguages } from '../data/project.ts';
import { useAuth } from '../auth.tsx';
import { NotForYourRole } from '../components/NotForYourRole.tsx';

const EVERY_LANGUAGE = '';

/** The project's glossary: terms AI jobs follow and every translation is checked against. */
export function Glossary() {
  const queryClient = useQueryClient();
  const glossary = useGlossary();
  const manage = useAuth().can('manage');
  const removeColumn: Column<GlossaryTerm> = {
    key: 'actions',
    header: 'Actions',
    cell: (t) => (
      <ConfirmButton
        size="xs"
        ariaLabel={`Remove ${t.term}`}
        title="Remove term?"
        message={`“${t.term}” is no longer told to AI jobs or checked.`}
        confirmLabel="Remove"
        onConfirm={() =>
          deleteAndRefresh(
            () => api.delete('/glossary/{id}', { path: { id: t.id } }),
            'Term removed',
            () => refreshAfterGlossaryChange(queryClient),
          )
        }
      >
        Remove
      </ConfirmButton>
    ),
  };
  const columns: Array<Column<GlossaryTerm>> = [
    {
      key: 'term',
      header: 'Term',
      phone: 'title',
      sortValue: (t) => t.term.toLowerCase(),
      cell: (t) => t.term,
    },
    {
      key: 'lang',
      header: 'Language',
      sortValue: (t) => t.lang ?? '',
      cell: (t) => t.lang ?? 'Every language',
    },
    {
      key: 'translation',
      header: 'Translation',
      cell: (t) =>
        t.doNotTranslate ? (
          <Badge variant="light" color="gray">
            Do not translate
          </Badge>
        ) : (
          t.translation
        ),
    },
    { key: 'case', header: 'Case', cell: (t) => (t.caseSensitive ? 'Exact case' : 'Any case') },
    { key: 'note', header: 'Note', cell: (t) => t.note },
  ];
  if (manage) columns.push(removeColumn);
  return (
    <>
      <PageTitle>Glossary</PageTitle>
      <Text c="dimmed" size="sm" mb="md">
        Your product’s terms and how each language says them, or names that stay as they are. AI jobs are told
        the terms a batch uses; every translation is checked against them, in the grid and on Analytics.
      </Text>
      <Stack>
        {manage ? <TermForm /> : <NotForYourRole>adding and removing terms</NotForYourRole>}
        <QueryView query={glossary} label="Loading the glossary…">
          {(terms) =>
            terms.length === 0 ? (
              <Text size="sm" c="dimmed">
                No terms yet.
              </Text>
            ) : (
              <LocalDataTable
                data-testid="glossary-terms"
                sort={{ key: 'term', direction: 'ascending' }}
                rows={terms}
                rowKey={(t) => String(t.id)}
                rowLabel={(t) => t.term}
                columns={columns}
                searchText={(t) => `${t.term} ${t.translation ?? ''} ${t.note}`}
                searchLabel="Search terms"
              />
            )
          }
        </QueryView>
      </Stack>
    </>
  );
}

const refreshAfterGlossaryChange = (queryClient: ReturnType<typeof useQueryClient>) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: glossaryKeys.all }),
    queryClient.invalidateQueries({ queryKey: rowKeys.all }),
    queryClient.invalidateQueries({ queryKey: analyticsKeys.all }),
  ]);

function TermForm() {
  const queryClient = useQueryClient();
  const languages = useLanguages();
  const [term, setTerm] = useState('');
  const [lang, setLang] = useState<string>(EVERY_LANGUAGE);
  const [translation, setTranslation] = useState('');
  const [doNotTranslate, setDoNotTranslate] = useState(false);
  const [caseSensitive, setCaseSensitive] = useState(false);
  const [note, setNote] = useState('');
  const add = useMutation({
    mutationFn: () =>
      api.post('/glossary', {
        body: {
          term,
          lang: lang || null,
          ...(doNotTranslate ? {} : { translation }),
          doNotTranslate,
          caseSensitive,
          note,
        },
      }),
    onSuccess: async (added) => {
      notifyOk(`“${added.term}” added to the glossary`);
      setTerm('');
      setTranslation('');
      setNote('');
      await refreshAfterGlossaryChange(queryClient);
    },
    onError: (error) => notifyError(error, 'The term was not added'),
  });
  const options = [
    { value: EVERY_LANGUAGE, label: 'Every language' },
    ...(languages.data ?? []).map((l) => ({ value: l.code, label: `${l.name} (${l.code})` })),
  ];
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      onSubmit={(event) => {
        event.preventDefault();
        add.mutate();
      }}
    >
      <Title order={3} size="h4" mb="sm">
        Add a term
      </Title>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label="Term"
          description="As it appears in your pages"
          value={term}
          onChange={(event) => setTerm(event.currentTarget.value)}
          error={fieldError(add.error, 'term')}
          required
          w={200}
        />
        <Select
          label="Language"
          description="Of the translation"
          data={options}
          value={lang}
          onChange={(value) => setLang(value ?? EVERY_LANGUAGE)}
          allowDeselect={false}
          error={fieldError(add.error, 'lang')}
          w={200}
        />
        <TextInput
          label="Translation"
          description={doNotTranslate ? 'The term stays as it is' : 'What the term must become'}
          value={doNotTranslate ? '' : translation}
          onChange={(event) => setTranslation(event.currentTarget.value)}
          disabled={doNotTranslate}
          error={fieldError(add.error, 'translation')}
          w={200}
        />
        <TextInput
          label="Note"
          description="For translators"
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          w={200}
        />
      </Group>
      <Group mt="sm" gap="lg">
        <Checkbox
          label="Do not translate"
          checked={doNotTranslate}
          onChange={(event) => setDoNotTranslate(event.currentTarget.checked)}
        />
        <Checkbox
          label="Exact case"
          checked={caseSensitive}
          onChange={(event) => setCaseSensitive(event.currentTarget.checked)}
        />
        <Button type="submit" loading={add.isPending}>
          Add term
        </Button>
      </Group>
    </Paper>
  );
}
