import { type Column } from '@app/web-kit';
import { Anchor, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router';
import { showError, showSuccess } from '../../api/errors.ts';
import { DialogFormActions, useFormGuide } from '../../components/FormGuide.tsx';
import { useDeleteSite, useSaveSite, useSites } from '../../api/fleet.ts';
import type { Site } from '../../api/types.ts';
import { EmptyState } from '../../components/common.tsx';
import { CrudPage } from '../../components/CrudPage.tsx';

type SiteValues = Omit<Site, 'id' | 'nodeCount' | 'externalIp'> & { externalIp: string };

const blank: SiteValues = {
  name: '',
  internalDomain: '',
  dhcpRange: '',
  subnetMask: '255.255.255.0',
  gateway: '',
  dnsForwarders: '',
  externalIp: '',
};

const siteBody = (values: SiteValues) => ({
  name: values.name,
  internalDomain: values.internalDomain,
  dhcpRange: values.dhcpRange,
  subnetMask: values.subnetMask,
  gateway: values.gateway,
  dnsForwarders: values.dnsForwarders,
  externalIp: values.externalIp.trim() || null,
});

function SiteForm({ site, onDone }: { site: Site | null; onDone: () => void }) {
  const form = useForm<SiteValues>({
    mode: 'controlled',
    initialValues: site ? { ...site, externalIp: site.externalIp ?? '' } : blank,
    validate: {
      name: (v) => (v.trim() ? null : 'Required'),
      internalDomain: (v) => (v.trim() ? null : 'Required'),
    },
  });
  const guide = useFormGuide(form);
  const save = useSaveSite(site, {
    onSuccess: () => {
      showSuccess('Site saved');
      onDone();
    },
    onError: (error) => guide.showError(error),
  });
  return (
    <form
      ref={guide.ref}
      onSubmit={form.onSubmit((values) => save.mutate(siteBody(values)), guide.failed)}
      noValidate
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
          <TextInput
            label="Internal domain"
            placeholder="site.internal"
            required
            {...form.getInputProps('internalDomain')}
          />
          <TextInput
            label="DHCP range"
            placeholder="10.0.0.100,10.0.0.200"
            {...form.getInputProps('dhcpRange')}
          />
          <TextInput label="Subnet mask" {...form.getInputProps('subnetMask')} />
          <TextInput label="Gateway" placeholder="10.0.0.1" {...form.getInputProps('gateway')} />
          <TextInput
            label="DNS forwarders"
            description="IP addresses separated by commas; address#port for another port; blank: the gateway host's own resolvers"
            placeholder="e.g. 1.1.1.1,8.8.8.8"
            {...form.getInputProps('dnsForwarders')}
          />
          <TextInput
            label="External IP"
            description="Target of DNS A records for cross-site HTTP services"
            {...form.getInputProps('externalIp')}
          />
        </SimpleGrid>
        <DialogFormActions problems={guide.summary} saving={save.isPending} onCancel={onDone} />
      </Stack>
    </form>
  );
}

const SITE_COLUMNS: Array<Column<Site>> = [
  {
    key: 'name',
    header: 'Name',
    phone: 'title',
    cell: (site) => (
      <Anchor component={Link} to={`/sites/${site.id}/containers`} fw={500}>
        {site.name}
      </Anchor>
    ),
  },
  { key: 'domain', header: 'Domain', cell: (site) => site.internalDomain },
  { key: 'dhcp', header: 'DHCP range', cell: (site) => site.dhcpRange },
  { key: 'gateway', header: 'Gateway', cell: (site) => site.gateway },
  { key: 'externalIp', header: 'External IP', cell: (site) => site.externalIp ?? '—' },
  {
    key: 'nodes',
    header: 'Nodes',
    align: 'end',
    cell: (site) => (
      <Anchor component={Link} to={`/sites/${site.id}/nodes`}>
        {site.nodeCount ?? 'nodes'}
      </Anchor>
    ),
  },
];

export function SitesPage() {
  const remove = useDeleteSite({
    onSuccess: () => showSuccess('Site deleted'),
    onError: (error) => showError(error),
  });
  return (
    <CrudPage
      title="Sites"
      newLabel="New site"
      newTitle="New site"
      query={useSites()}
      empty={
        <EmptyState title="No sites yet">A site groups nodes that share a network and a gateway.</EmptyState>
      }
      columns={SITE_COLUMNS}
      table={{
        'data-testid': 'sites-table',
        rowKey: (site) => site.id,
        rowAttributes: (site) => ({ 'data-site': site.name }),
      }}
      nameOf={(site) => site.name}
      deleteMessage="A site can only be deleted once it has no nodes."
      onDelete={(site) => remove.mutateAsync(site)}
      form={(site, done) => <SiteForm site={site} onDone={done} />}
      dialogSize="lg"
    />
  );
}
