import { Checkbox, PasswordInput, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { showError, showSuccess } from '../../api/errors.ts';
import type { Node, NodeType } from '../../api/types.ts';
import { PageHeader, QueryState, SubmitOrCancel } from '../../components/common.tsx';
import { FingerprintInput } from './FingerprintInput.tsx';

interface NodeValues {
  name: string;
  nodeType: NodeType;
  ipv4Address: string;
  apiUrl: string;
  tokenId: string;
  secret: string;
  tlsVerify: boolean;
  tlsFingerprint: string;
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
      tlsFingerprint: node?.tlsFingerprint ?? '',
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
        tlsFingerprint: values.tlsFingerprint.trim() || null,
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
                node?.hasSecret
                  ? 'Stored; leave blank to keep it — unless the API URL or the TLS check changes: then enter it again'
                  : 'API token secret or TLS client secret'
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
          <>
            <FingerprintInput {...form.getInputProps('tlsFingerprint')} />
            <Switch
              label="Verify TLS certificates against the trusted CAs"
              description="Needed off only for a self-signed certificate you do not pin"
              disabled={Boolean(form.values.tlsFingerprint.trim())}
              {...form.getInputProps('tlsVerify', { type: 'checkbox' })}
            />
          </>
        ) : null}
        <Checkbox
          label="NVIDIA GPU available for passthrough"
          {...form.getInputProps('nvidiaAvailable', { type: 'checkbox' })}
        />
        <SubmitOrCancel label="Save node" loading={save.isPending} cancelTo={`/sites/${siteId}/nodes`} />
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
