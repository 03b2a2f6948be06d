import {
  Button,
  Modal,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useDeleteDomain, useExternalDomains, useSaveDomain } from '../../api/external-domains.ts';
import { showError, showSuccess } from '../../api/errors.ts';
import { DialogFormActions, useFormGuide } from '../../components/FormGuide.tsx';
import { useSites } from '../../api/fleet.ts';
import type { ExternalDomain } from '../../api/types.ts';
import { EditDeleteActions, EmptyState, PageHeader, QueryState } from '../../components/common.tsx';
import { DomainCertificates } from './DomainCertificates.tsx';

interface DomainValues {
  name: string;
  acmeEmail: string;
  acmeDirectoryUrl: string;
  dnsProviderApiEmail: string;
  dnsProviderApiKey: string;
  siteId: string | null;
  authServer: string;
}

const domainBody = (values: DomainValues) => ({
  name: values.name.trim(),
  acmeEmail: values.acmeEmail.trim() || null,
  acmeDirectoryUrl: values.acmeDirectoryUrl.trim() || null,
  dnsProviderApiEmail: values.dnsProviderApiEmail.trim() || null,
  dnsProviderApiKey: values.dnsProviderApiKey || undefined,
  siteId: values.siteId ? Number(values.siteId) : null,
  authServer: values.authServer.trim() || null,
});

function DomainForm({ domain, onDone }: { domain: ExternalDomain | null; onDone: () => void }) {
  const sites = useSites();
  const form = useForm<DomainValues>({
    mode: 'controlled',
    initialValues: {
      name: domain?.name ?? '',
      acmeEmail: domain?.acmeEmail ?? '',
      acmeDirectoryUrl: domain?.acmeDirectoryUrl ?? '',
      dnsProviderApiEmail: domain?.dnsProviderApiEmail ?? '',
      dnsProviderApiKey: '',
      siteId: domain?.siteId ? String(domain.siteId) : null,
      authServer: domain?.authServer ?? '',
    },
    validate: { name: (v) => (v.trim() ? null : 'Required') },
  });
  const guide = useFormGuide(form);
  const save = useSaveDomain(domain, {
    onSuccess: () => {
      showSuccess('External domain saved');
      onDone();
    },
    onError: (error) => guide.showError(error),
  });
  return (
    <form
      ref={guide.ref}
      onSubmit={form.onSubmit((values) => save.mutate(domainBody(values)), guide.failed)}
      noValidate
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Domain"
            placeholder="apps.example.com"
            required
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Select
            label="Default site"
            description="Its DNS is pre-configured for this domain"
            clearable
            data={(sites.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
            {...form.getInputProps('siteId')}
          />
          <TextInput label="ACME e-mail" {...form.getInputProps('acmeEmail')} />
          <TextInput
            label="ACME directory URL"
            placeholder="https://acme-v02.api.letsencrypt.org/directory"
            {...form.getInputProps('acmeDirectoryUrl')}
          />
          <TextInput label="DNS provider API e-mail" {...form.getInputProps('dnsProviderApiEmail')} />
          <PasswordInput
            label="DNS provider API key"
            description={domain?.hasDnsProviderApiKey ? 'Stored; leave blank to keep it' : undefined}
            autoComplete="off"
            {...form.getInputProps('dnsProviderApiKey')}
          />
          <TextInput
            label="Auth server"
            description="Where the proxy forwards /oauth2/* for services that require sign-in: http(s)://host, an optional :port and a plain path"
            placeholder="http://127.0.0.1:4180"
            {...form.getInputProps('authServer')}
          />
        </SimpleGrid>
        <DialogFormActions problems={guide.summary} saving={save.isPending} onCancel={onDone} />
      </Stack>
    </form>
  );
}

export function ExternalDomainsPage() {
  const domains = useExternalDomains();
  const [editing, setEditing] = useState<ExternalDomain | 'new' | null>(null);
  const remove = useDeleteDomain({
    onSuccess: () => showSuccess('External domain deleted'),
    onError: (error) => showError(error),
  });
  return (
    <>
      <PageHeader title="External domains">
        <Button onClick={() => setEditing('new')}>New domain</Button>
      </PageHeader>
      <QueryState
        query={domains}
        empty={
          <EmptyState title="No external domains">
            HTTP services are published under these domains.
          </EmptyState>
        }
      >
        {(list) => (
          <Table.ScrollContainer minWidth={860}>
            <Table striped highlightOnHover data-testid="domains-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Domain</Table.Th>
                  <Table.Th>Default site</Table.Th>
                  <Table.Th>ACME</Table.Th>
                  <Table.Th>Certificates</Table.Th>
                  <Table.Th>DNS provider</Table.Th>
                  <Table.Th>Auth server</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td fw={500}>{d.name}</Table.Td>
                    <Table.Td>{d.site?.name ?? '—'}</Table.Td>
                    <Table.Td>{d.acmeEmail ?? '—'}</Table.Td>
                    <Table.Td>
                      <DomainCertificates domainId={d.id} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{d.dnsProviderApiEmail ?? '—'}</Text>
                      <Text size="xs" c="dimmed">
                        {d.hasDnsProviderApiKey ? 'key stored' : 'no key'}
                      </Text>
                    </Table.Td>
                    <Table.Td>{d.authServer ?? '—'}</Table.Td>
                    <Table.Td>
                      <EditDeleteActions
                        name={d.name}
                        message="Services published under this domain stop being reachable."
                        onEdit={() => setEditing(d)}
                        onDelete={() => remove.mutateAsync(d)}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'New external domain' : `Edit ${editing?.name ?? ''}`}
        size="lg"
      >
        {editing !== null ? (
          <DomainForm domain={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        ) : null}
      </Modal>
    </>
  );
}
