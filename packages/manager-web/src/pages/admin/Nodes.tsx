import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { api, ApiError } from '../../api/client.ts';
import { showError, showSuccess } from '../../api/errors.ts';
import { rememberedSite, rememberSite, useNodes, useSites } from '../../api/fleet.ts';
import type { Node, NodeType } from '../../api/types.ts';
import { SitePicker } from '../../components/SitePicker.tsx';
import { ConfirmButton, EmptyState, ErrorState, PageHeader, QueryState } from '../../components/common.tsx';

/** `/nodes` without a site: the last one used, or the first. */
function PickSite({ to }: { to: (siteId: number) => string }) {
  const sites = useSites();
  return (
    <>
      <PageHeader title="Nodes" />
      <QueryState
        query={sites}
        empty={
          <EmptyState title="No sites yet">
            Create a{' '}
            <Anchor component={Link} to="/sites">
              site
            </Anchor>{' '}
            first.
          </EmptyState>
        }
      >
        {(list) => {
          const remembered = rememberedSite();
          const site = list.find((s) => s.id === remembered) ?? list[0]!;
          return <Navigate to={to(site.id)} replace />;
        }}
      </QueryState>
    </>
  );
}

export function NodesPage() {
  const params = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const siteId = params.siteId ? Number(params.siteId) : undefined;
  const nodes = useNodes(siteId);
  const sites = useSites();
  const remove = useMutation({
    mutationFn: (node: Node) => api.delete(`/sites/${siteId}/nodes/${node.id}`),
    onSuccess: () => {
      showSuccess('Node deleted');
      void client.invalidateQueries({ queryKey: ['sites'] });
    },
    onError: (error) => showError(error),
  });
  if (siteId === undefined) return <PickSite to={(id) => `/sites/${id}/nodes`} />;
  rememberSite(siteId);
  const site = sites.data?.find((s) => s.id === siteId);
  return (
    <>
      <PageHeader title={`Nodes${site ? ` · ${site.name}` : ''}`}>
        <SitePicker value={siteId} onChange={(id) => navigate(`/sites/${id}/nodes`)} />
        <Button variant="default" component={Link} to={`/sites/${siteId}/nodes/import`}>
          Import cluster
        </Button>
        <Button component={Link} to={`/sites/${siteId}/nodes/new`}>
          New node
        </Button>
      </PageHeader>
      <QueryState
        query={nodes}
        empty={
          <EmptyState title="No nodes in this site">
            Add a Proxmox VE host, a container engine, or a simulated dummy node.
          </EmptyState>
        }
      >
        {(list) => (
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover data-testid="nodes-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Address</Table.Th>
                  <Table.Th>API</Table.Th>
                  <Table.Th>GPU</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((node) => (
                  <Table.Tr key={node.id} data-node={node.name}>
                    <Table.Td fw={500}>
                      <Anchor component={Link} to={`/sites/${siteId}/nodes/${node.id}`}>
                        {node.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light">{node.nodeType}</Badge>
                    </Table.Td>
                    <Table.Td>{node.ipv4Address ?? '—'}</Table.Td>
                    <Table.Td>
                      <Text size="sm" truncate maw={260}>
                        {node.apiUrl ?? '—'}
                      </Text>
                      {node.nodeType !== 'dummy' && !node.hasSecret ? (
                        <Text size="xs" c="orange">
                          no credentials
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>{node.nvidiaAvailable ? 'yes' : '—'}</Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          component={Link}
                          to={`/sites/${siteId}/nodes/${node.id}/edit`}
                        >
                          Edit
                        </Button>
                        <ConfirmButton
                          label="Delete"
                          title={`Delete ${node.name}`}
                          message="A node can only be deleted once it has no containers."
                          onConfirm={() => remove.mutateAsync(node)}
                        />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </>
  );
}

interface NodeValues {
  name: string;
  nodeType: NodeType;
  ipv4Address: string;
  apiUrl: string;
  tokenId: string;
  secret: string;
  tlsVerify: boolean;
  imageStorage: string;
  volumeStorage: string;
  networkBridge: string;
  nvidiaAvailable: boolean;
}

function NodeForm({ siteId, node }: { siteId: number; node: Node | null }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const form = useForm<NodeValues>({
    mode: 'controlled',
    initialValues: {
      name: node?.name ?? '',
      nodeType: node?.nodeType ?? 'hypervisor',
      ipv4Address: node?.ipv4Address ?? '',
      apiUrl: node?.apiUrl ?? '',
      tokenId: node?.tokenId ?? '',
      secret: '',
      tlsVerify: node?.tlsVerify ?? true,
      imageStorage: node?.imageStorage ?? 'local',
      volumeStorage: node?.volumeStorage ?? 'local-lvm',
      networkBridge: node?.networkBridge ?? 'vmbr0',
      nvidiaAvailable: node?.nvidiaAvailable ?? false,
    },
    validate: {
      name: (v) => (v.trim() ? null : 'Required: the hypervisor’s hostname'),
      apiUrl: (v, values) =>
        values.nodeType === 'engine' && !v.trim() ? 'Required for an engine node' : null,
    },
  });
  const save = useMutation({
    mutationFn: (values: NodeValues) => {
      const body = {
        ...values,
        ipv4Address: values.ipv4Address.trim() || null,
        apiUrl: values.apiUrl.trim() || null,
        tokenId: values.tokenId.trim() || null,
        secret: values.secret || undefined,
      };
      return node
        ? api.put<Node>(`/sites/${siteId}/nodes/${node.id}`, body)
        : api.post<Node>(`/sites/${siteId}/nodes`, body);
    },
    onSuccess: (saved) => {
      showSuccess('Node saved');
      void client.invalidateQueries({ queryKey: ['sites'] });
      navigate(`/sites/${siteId}/nodes/${saved.id}`);
    },
    onError: (error) => showError(error, form, { secret: 'secret' }),
  });
  const type = form.values.nodeType;
  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
      <Stack maw={760}>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Name"
            description="Must equal the hypervisor’s hostname"
            required
            autoFocus
            {...form.getInputProps('name')}
          />
          <Select
            label="Type"
            disabled={Boolean(node)}
            allowDeselect={false}
            data={[
              { value: 'hypervisor', label: 'Proxmox VE hypervisor' },
              { value: 'engine', label: 'Container engine (Docker / Podman API)' },
              { value: 'dummy', label: 'Dummy (simulated)' },
            ]}
            {...form.getInputProps('nodeType')}
          />
          <TextInput label="IPv4 address" {...form.getInputProps('ipv4Address')} />
          {type !== 'dummy' ? (
            <TextInput
              label={type === 'engine' ? 'Engine host' : 'API URL'}
              placeholder={
                type === 'engine'
                  ? 'unix:///var/run/docker.sock or tcp://host:2375'
                  : 'https://pve1:8006/api2/json'
              }
              required={type === 'engine'}
              {...form.getInputProps('apiUrl')}
            />
          ) : null}
          {type === 'hypervisor' ? (
            <TextInput
              label="API token id"
              placeholder="root@pam!manager"
              {...form.getInputProps('tokenId')}
            />
          ) : null}
          {type !== 'dummy' ? (
            <PasswordInput
              label="Secret"
              description={
                node?.hasSecret ? 'Stored; leave blank to keep it' : 'API token secret or TLS client secret'
              }
              autoComplete="off"
              {...form.getInputProps('secret')}
            />
          ) : null}
          <TextInput label="Image storage" {...form.getInputProps('imageStorage')} />
          <TextInput label="Volume storage" {...form.getInputProps('volumeStorage')} />
          <TextInput label="Network bridge" {...form.getInputProps('networkBridge')} />
        </SimpleGrid>
        {type !== 'dummy' ? (
          <Switch
            label="Verify TLS certificates"
            {...form.getInputProps('tlsVerify', { type: 'checkbox' })}
          />
        ) : null}
        <Checkbox
          label="NVIDIA GPU available for passthrough"
          {...form.getInputProps('nvidiaAvailable', { type: 'checkbox' })}
        />
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save node
          </Button>
          <Button variant="default" component={Link} to={`/sites/${siteId}/nodes`}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function NodeFormPage() {
  const params = useParams();
  const siteId = Number(params.siteId);
  const id = params.id ? Number(params.id) : null;
  const node = useQuery({
    queryKey: ['sites', siteId, 'nodes', id],
    queryFn: () => api.get<Node>(`/sites/${siteId}/nodes/${id}`),
    enabled: id !== null,
  });
  return (
    <>
      <PageHeader title={id ? `Edit node ${node.data?.name ?? ''}` : 'New node'} />
      {id === null ? (
        <NodeForm siteId={siteId} node={null} />
      ) : (
        <QueryState query={node} isEmpty={() => false}>
          {(data) => <NodeForm siteId={siteId} node={data} />}
        </QueryState>
      )}
    </>
  );
}

export function NodeImportPage() {
  const params = useParams();
  const siteId = Number(params.siteId);
  const client = useQueryClient();
  const [result, setResult] = useState<{ nodes: Node[]; importedContainerCount: number } | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { apiUrl: '', username: 'root@pam', password: '', tlsVerify: true },
    validate: {
      apiUrl: (v) => (/^https?:\/\//.test(v.trim()) ? null : 'An https:// URL of one cluster member'),
      username: (v) => (v.trim() ? null : 'Required'),
      password: (v) => (v ? null : 'Required'),
    },
  });
  const run = useMutation({
    mutationFn: (values: typeof form.values) =>
      api.post<{ nodes: Node[]; importedContainerCount: number }>(`/sites/${siteId}/nodes/import`, values),
    onSuccess: (data) => {
      setResult(data);
      void client.invalidateQueries({ queryKey: ['sites'] });
    },
    // Errors about one field go under it; any other (the cluster refused the login, could not be
    // reached) stays in the form until the next try, with everything typed still in place.
    onError: (error) => {
      if (error instanceof ApiError && error.fields) showError(error, form);
    },
  });
  const failure = run.error instanceof ApiError && run.error.fields ? null : run.error;
  if (!Number.isInteger(siteId)) return <ErrorState error={new Error('Unknown site')} />;
  return (
    <>
      <PageHeader title="Import a Proxmox VE cluster" />
      <Text size="sm" c="dimmed" mb="md" maw={720}>
        Every node of the cluster is added to this site, and their containers are adopted. The password is
        used once and not stored.
      </Text>
      {result ? (
        <Alert color="green" mb="md" title="Imported" data-testid="import-result">
          {result.nodes.length} nodes and {result.importedContainerCount} containers:{' '}
          {result.nodes.map((n) => n.name).join(', ')}.{' '}
          <Anchor component={Link} to={`/sites/${siteId}/nodes`}>
            Back to nodes
          </Anchor>
        </Alert>
      ) : null}
      <Paper withBorder p="md" maw={620}>
        <form onSubmit={form.onSubmit((values) => run.mutate(values))} noValidate>
          <Stack>
            {failure ? (
              <Alert color="red" title="Import failed" data-testid="import-error">
                {failure.message}
              </Alert>
            ) : null}
            <TextInput
              label="API URL"
              placeholder="https://pve1.example.com:8006"
              required
              autoFocus
              {...form.getInputProps('apiUrl')}
            />
            <TextInput label="Username" required {...form.getInputProps('username')} />
            <PasswordInput label="Password" required autoComplete="off" {...form.getInputProps('password')} />
            <Switch
              label="Verify TLS certificates"
              {...form.getInputProps('tlsVerify', { type: 'checkbox' })}
            />
            <Group>
              <Button type="submit" loading={run.isPending}>
                Import
              </Button>
              <Button variant="default" component={Link} to={`/sites/${siteId}/nodes`}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </>
  );
}
