import { Button, Checkbox, PasswordInput, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { siteKeys, useNode } from '../../api/fleet.ts';
import { showSuccess } from '../../api/errors.ts';
import { FormErrorSummary, useFormGuide } from '../../components/FormGuide.tsx';
import type { Node, NodeStats, NodeType } from '../../api/types.ts';
import { PageHeader, QueryState, SubmitOrCancel } from '../../components/common.tsx';
import { FingerprintInput } from './FingerprintInput.tsx';
import { NodeConnectionResult } from './NodeConnectionCheck.tsx';

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
  /** Blank: the node type's default. */
  volumeIdShift: string;
}

/** Proxmox VE's storage and bridge names; an engine or a dummy node uses none of them but the volume storage. */
const HYPERVISOR_DEFAULTS = { imageStorage: 'local', volumeStorage: 'local-lvm', networkBridge: 'vmbr0' };

const bodyOf = (values: NodeValues) => ({
  ...values,
  ipv4Address: values.ipv4Address.trim() || null,
  apiUrl: values.apiUrl.trim() || null,
  tokenId: values.tokenId.trim() || null,
  tlsFingerprint: values.tlsFingerprint.trim() || null,
  secret: values.secret || undefined,
  volumeIdShift: values.volumeIdShift.trim() ? Number(values.volumeIdShift) : null,
});

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
      imageStorage: node?.imageStorage ?? HYPERVISOR_DEFAULTS.imageStorage,
      volumeStorage: node?.volumeStorage ?? HYPERVISOR_DEFAULTS.volumeStorage,
      networkBridge: node?.networkBridge ?? HYPERVISOR_DEFAULTS.networkBridge,
      nvidiaAvailable: node?.nvidiaAvailable ?? false,
      volumeIdShift: node?.volumeIdShift?.toString() ?? '',
    },
    validate: {
      name: (v) => (v.trim() ? null : 'Required: the hypervisor’s hostname'),
      apiUrl: (v, values) =>
        values.nodeType === 'engine' && !v.trim() ? 'Required for an engine node' : null,
      volumeIdShift: (v) => (/^\d*$/.test(v.trim()) ? null : 'A whole number from 0, or blank'),
    },
  });
  const guide = useFormGuide(form);
  // What the node answered the last time its connection was tried, and whether Save now saves anyway.
  const [checked, setChecked] = useState<{ stats: NodeStats; saveAnyway: boolean } | null>(null);
  const tryConnection = (values: NodeValues) =>
    api.post('/sites/{siteId}/nodes/test', {
      path: { siteId },
      body: { ...bodyOf(values), ...(node ? { nodeId: node.id } : {}) },
    });
  const check = useMutation({
    mutationFn: tryConnection,
    onSuccess: (stats) => setChecked({ stats, saveAnyway: false }),
    onError: (error) => guide.showError(error, { secret: 'secret' }),
  });
  const save = useMutation({
    mutationFn: async (values: NodeValues) => {
      if (values.nodeType !== 'dummy' && !checked?.saveAnyway) {
        const stats = await tryConnection(values);
        if (!stats.available) {
          setChecked({ stats, saveAnyway: true });
          return null;
        }
      }
      const body = bodyOf(values);
      return node
        ? api.put('/sites/{siteId}/nodes/{id}', { path: { siteId, id: node.id }, body })
        : api.post('/sites/{siteId}/nodes', { path: { siteId }, body });
    },
    onSuccess: (saved) => {
      if (!saved) return;
      showSuccess('Node saved');
      void client.invalidateQueries({ queryKey: siteKeys.all });
      navigate(`/sites/${siteId}/nodes/${saved.id}`);
    },
    onError: (error) => guide.showError(error, { secret: 'secret' }),
  });
  form.watch('apiUrl', () => setChecked(null));
  form.watch('secret', () => setChecked(null));
  const type = form.values.nodeType;
  return (
    <form ref={guide.ref} onSubmit={form.onSubmit((values) => save.mutate(values), guide.failed)} noValidate>
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
            onChange={(value) => {
              form.setFieldValue('nodeType', value as NodeType);
              setChecked(null);
            }}
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
          {type === 'hypervisor' ? (
            <TextInput label="Image storage" {...form.getInputProps('imageStorage')} />
          ) : null}
          <TextInput
            label="Volume storage"
            description={
              type === 'hypervisor'
                ? 'The Proxmox VE storage of container volumes'
                : 'A folder on the host (absolute path) or a storage name under the volume root'
            }
            {...form.getInputProps('volumeStorage')}
          />
          {type === 'hypervisor' ? (
            <TextInput label="Network bridge" {...form.getInputProps('networkBridge')} />
          ) : null}
          <TextInput
            label="Volume id shift"
            description="Added to the container user's uid/gid for the owner of its volume folders; blank: 100000 for a hypervisor (unprivileged containers), 0 for an engine"
            inputMode="numeric"
            {...form.getInputProps('volumeIdShift')}
          />
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
        {checked ? <NodeConnectionResult {...checked} /> : null}
        <SubmitOrCancel
          label={checked?.saveAnyway ? 'Save anyway' : 'Save node'}
          loading={save.isPending}
          cancelTo={`/sites/${siteId}/nodes`}
        >
          {type !== 'dummy' ? (
            <Button
              variant="default"
              loading={check.isPending}
              onClick={() => {
                if (!form.validate().hasErrors) check.mutate(form.values);
              }}
            >
              Test connection
            </Button>
          ) : null}
          <FormErrorSummary problems={guide.summary} />
        </SubmitOrCancel>
      </Stack>
    </form>
  );
}

export function NodeFormPage() {
  const params = useParams();
  const siteId = Number(params.siteId);
  const id = params.id ? Number(params.id) : null;
  const node = useNode(siteId, id);
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
