import { type Column } from '@app/web-kit';
import { PasswordInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDeleteDomain, useExternalDomains, useSaveDomain } from '../../api/external-domains.ts';
import { showError, showSuccess } from '../../api/errors.ts';
import { DialogFormActions, useFormGuide } from '../../components/FormGuide.tsx';
import { useSites } from '../../api/fleet.ts';
import type { ExternalDomain } from '../../api/types.ts';
import { EmptyState } from '../../components/common.tsx';
import { CrudPage } from '../../components/CrudPage.tsx';
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

const DOMAIN_COLUMNS: Array<Column<ExternalDomain>> = [
  { key: 'name', header: 'Domain', phone: 'title', cell: (d) => <Text fw={500}>{d.name}</Text> },
  { key: 'site', header: 'Default site', cell: (d) => d.site?.name ?? '—' },
  { key: 'acme', header: 'ACME', cell: (d) => d.acmeEmail ?? '—' },
  { key: 'certificates', header: 'Certificates', cell: (d) => <DomainCertificates domainId={d.id} /> },
  {
    key: 'dnsProvider',
    header: 'DNS provider',
    cell: (d) => (
      <>
        <Text size="sm">{d.dnsProviderApiEmail ?? '—'}</Text>
        <Text size="xs" c="dimmed">
          {d.hasDnsProviderApiKey ? 'key stored' : 'no key'}
        </Text>
      </>
    ),
  },
  { key: 'authServer', header: 'Auth server', cell: (d) => d.authServer ?? '—' },
];

export function ExternalDomainsPage() {
  const remove = useDeleteDomain({
    onSuccess: () => showSuccess('External domain deleted'),
    onError: (error) => showError(error),
  });
  return (
    <CrudPage
      title="External domains"
      newLabel="New domain"
      newTitle="New external domain"
      query={useExternalDomains()}
      empty={
        <EmptyState title="No external domains">HTTP services are published under these domains.</EmptyState>
      }
      columns={DOMAIN_COLUMNS}
      table={{ 'data-testid': 'domains-table', rowKey: (d) => d.id }}
      nameOf={(d) => d.name}
      deleteMessage="Services published under this domain stop being reachable."
      onDelete={(d) => remove.mutateAsync(d)}
      form={(domain, done) => <DomainForm domain={domain} onDone={done} />}
      dialogSize="lg"
    />
  );
}
