import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.ts';
import { showError, showSuccess } from '../api/errors.ts';
import type { ApiKey } from '../api/types.ts';
import {
  ConfirmButton,
  EmptyState,
  formatDate,
  PageHeader,
  QueryState,
  relativeTime,
} from '../components/common.tsx';

type Created = ApiKey & { key: string; warning: string };

export function ApiKeysPage() {
  const client = useQueryClient();
  const keys = useQuery({ queryKey: ['apikeys'], queryFn: () => api.get<ApiKey[]>('/apikeys') });
  const [created, setCreated] = useState<Created | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { description: '' },
    validate: { description: (v) => (v.length <= 255 ? null : 'At most 255 characters') },
  });
  const create = useMutation({
    mutationFn: (values: { description: string }) => api.post<Created>('/apikeys', values),
    onSuccess: (key) => {
      setCreated(key);
      form.reset();
      void client.invalidateQueries({ queryKey: ['apikeys'] });
    },
    onError: (error) => showError(error, form),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.delete(`/apikeys/${id}`),
    onSuccess: () => {
      showSuccess('API key deleted');
      void client.invalidateQueries({ queryKey: ['apikeys'] });
    },
    onError: (error) => showError(error),
  });

  return (
    <>
      <PageHeader title="API keys" />
      <Text size="sm" c="dimmed" mb="md">
        Automation authenticates with <Code>Authorization: Bearer &lt;key&gt;</Code>. A key acts as you.
      </Text>
      <form onSubmit={form.onSubmit((values) => create.mutate(values))}>
        <Group align="flex-end" mb="lg" wrap="wrap">
          <TextInput
            label="Description"
            placeholder="e.g. CI deploy"
            style={{ flex: '1 1 240px' }}
            {...form.getInputProps('description')}
          />
          <Button type="submit" loading={create.isPending}>
            Create key
          </Button>
        </Group>
      </form>
      <QueryState query={keys} empty={<EmptyState title="No API keys yet">Create one above.</EmptyState>}>
        {(list) => (
          <Table.ScrollContainer minWidth={560}>
            <Table striped highlightOnHover data-testid="apikeys-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Description</Table.Th>
                  <Table.Th>Prefix</Table.Th>
                  <Table.Th>Last used</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((key) => (
                  <Table.Tr key={key.id}>
                    <Table.Td>{key.description ?? <Text c="dimmed">—</Text>}</Table.Td>
                    <Table.Td>
                      <Code>{key.keyPrefix}…</Code>
                    </Table.Td>
                    <Table.Td>{relativeTime(key.lastUsedAt)}</Table.Td>
                    <Table.Td>{formatDate(key.createdAt)}</Table.Td>
                    <Table.Td ta="right">
                      <ConfirmButton
                        label="Delete"
                        title="Delete API key"
                        message={`Anything using the key ${key.keyPrefix}… stops working at once.`}
                        loading={remove.isPending}
                        onConfirm={() => remove.mutateAsync(key.id)}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
      <Modal opened={Boolean(created)} onClose={() => setCreated(null)} title="Your new API key" size="lg">
        {created ? (
          <Stack>
            <Alert color="yellow">{created.warning}</Alert>
            <Code block data-testid="new-key" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
              {created.key}
            </Code>
            <Group justify="flex-end">
              <CopyButton value={created.key}>
                {({ copied, copy }) => (
                  <Button color={copied ? 'teal' : 'blue'} onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
              <Button variant="default" onClick={() => setCreated(null)}>
                Done
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </>
  );
}
