import { Anchor, Button, Modal, SimpleGrid, Stack, Table, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link } from 'react-router';
import { showError, showSuccess } from '../../api/errors.ts';
import { DialogFormActions, useFormGuide } from '../../components/FormGuide.tsx';
import { useDeleteSite, useSaveSite, useSites } from '../../api/fleet.ts';
import type { Site } from '../../api/types.ts';
import { EditDeleteActions, EmptyState, PageHeader, QueryState } from '../../components/common.tsx';

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

export function SitesPage() {
  const sites = useSites();
  const [editing, setEditing] = useState<Site | 'new' | null>(null);
  const remove = useDeleteSite({
    onSuccess: () => showSuccess('Site deleted'),
    onError: (error) => showError(error),
  });
  return (
    <>
      <PageHeader title="Sites">
        <Button onClick={() => setEditing('new')}>New site</Button>
      </PageHeader>
      <QueryState
        query={sites}
        empty={
          <EmptyState title="No sites yet">
            A site groups nodes that share a network and a gateway.
          </EmptyState>
        }
      >
        {(list) => (
          <Table.ScrollContainer minWidth={760}>
            <Table striped highlightOnHover data-testid="sites-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Domain</Table.Th>
                  <Table.Th>DHCP range</Table.Th>
                  <Table.Th>Gateway</Table.Th>
                  <Table.Th>External IP</Table.Th>
                  <Table.Th>Nodes</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((site) => (
                  <Table.Tr key={site.id} data-site={site.name}>
                    <Table.Td fw={500}>
                      <Anchor component={Link} to={`/sites/${site.id}/containers`}>
                        {site.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{site.internalDomain}</Table.Td>
                    <Table.Td>{site.dhcpRange}</Table.Td>
                    <Table.Td>{site.gateway}</Table.Td>
                    <Table.Td>{site.externalIp ?? '—'}</Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={`/sites/${site.id}/nodes`}>
                        {site.nodeCount ?? 'nodes'}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <EditDeleteActions
                        name={site.name}
                        message="A site can only be deleted once it has no nodes."
                        onEdit={() => setEditing(site)}
                        onDelete={() => remove.mutateAsync(site)}
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
        title={editing === 'new' ? 'New site' : `Edit ${editing?.name ?? ''}`}
        size="lg"
      >
        {editing !== null ? (
          <SiteForm site={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        ) : null}
      </Modal>
    </>
  );
}
