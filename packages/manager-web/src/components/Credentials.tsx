import { type Column, ConfirmButton, DataTable, Modal, useLocalView } from '@app/web-kit';
import { Alert, Button, Code, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { showError, showSuccess } from '../api/errors.ts';
import { EmptyState, formatDate, QueryState, relativeTime } from './common.tsx';

/** What API keys and agent tokens share: a description, a display prefix, and when they were used. */
export interface Credential {
  id: string;
  description: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface CredentialsPanelProps<T extends Credential, C> {
  /** The API calls that list, create and remove the credentials. */
  list: () => Promise<T[]>;
  create: (body: { description: string }) => Promise<C>;
  remove: (id: string) => Promise<unknown>;
  queryKey: unknown[];
  prefixOf: (credential: T) => string;
  /** The secret of a creation answer and the sentence saying it will not be shown again. */
  shownOnce: (created: C) => { secret: string; warning: string };
  tableTestId: string;
  words: {
    create: string;
    placeholder: string;
    empty: string;
    newTitle: string;
    remove: string;
    removeTitle: string;
    removed: string;
    removeMessage: (prefix: string) => string;
  };
}

/** Create (the secret shown once), list and remove a caller's credentials of one kind. */
export function CredentialsPanel<T extends Credential, C>(props: CredentialsPanelProps<T, C>) {
  const { queryKey, words } = props;
  const client = useQueryClient();
  const list = useQuery({ queryKey, queryFn: props.list });
  const [shown, setShown] = useState<{ secret: string; warning: string } | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { description: '' },
    validate: { description: (v) => (v.length <= 255 ? null : 'At most 255 characters') },
  });
  const create = useMutation({
    mutationFn: props.create,
    onSuccess: (created) => {
      setShown(props.shownOnce(created));
      form.reset();
      void client.invalidateQueries({ queryKey });
    },
    onError: (error) => showError(error, form),
  });
  const remove = useMutation({
    mutationFn: props.remove,
    onSuccess: () => {
      showSuccess(words.removed);
      void client.invalidateQueries({ queryKey });
    },
    onError: (error) => showError(error),
  });

  const [view, changeView] = useLocalView({ key: 'created', direction: 'descending' });
  const columns: Array<Column<T>> = [
    {
      key: 'description',
      header: 'Description',
      phone: 'title',
      sortValue: (c) => c.description,
      cell: (c) => c.description ?? <Text c="dimmed">—</Text>,
    },
    { key: 'prefix', header: 'Prefix', cell: (c) => <Code>{props.prefixOf(c)}…</Code> },
    {
      key: 'used',
      header: 'Last used',
      sortValue: (c) => c.lastUsedAt,
      cell: (c) => relativeTime(c.lastUsedAt),
    },
    {
      key: 'created',
      header: 'Created',
      sortValue: (c) => c.createdAt,
      cell: (c) => formatDate(c.createdAt),
    },
    {
      key: 'actions',
      header: 'Actions',
      cell: (c) => (
        <ConfirmButton
          size="xs"
          title={words.removeTitle}
          message={words.removeMessage(props.prefixOf(c))}
          loading={remove.isPending}
          onConfirm={() => remove.mutateAsync(c.id)}
        >
          {words.remove}
        </ConfirmButton>
      ),
    },
  ];

  return (
    <>
      <form onSubmit={form.onSubmit((values) => create.mutate(values))}>
        <Group align="flex-end" mb="lg" wrap="wrap">
          <TextInput
            label="Description"
            placeholder={words.placeholder}
            style={{ flex: '1 1 240px' }}
            {...form.getInputProps('description')}
          />
          <Button type="submit" loading={create.isPending}>
            {words.create}
          </Button>
        </Group>
      </form>
      <QueryState query={list} empty={<EmptyState title={words.empty}>Create one above.</EmptyState>}>
        {(credentials) => (
          <DataTable
            data-testid={props.tableTestId}
            rows={credentials}
            rowKey={(credential) => credential.id}
            columns={columns}
            view={view}
            onViewChange={changeView}
          />
        )}
      </QueryState>
      <Modal opened={Boolean(shown)} onClose={() => setShown(null)} title={words.newTitle} size="lg">
        {shown ? (
          <Stack>
            <Alert color="yellow">{shown.warning}</Alert>
            <Code block data-testid="new-key" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
              {shown.secret}
            </Code>
            <Group justify="flex-end">
              <CopyButton value={shown.secret}>
                {({ copied, copy }) => (
                  <Button color={copied ? 'teal' : 'blue'} onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
              <Button variant="default" onClick={() => setShown(null)}>
                Done
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </>
  );
}
