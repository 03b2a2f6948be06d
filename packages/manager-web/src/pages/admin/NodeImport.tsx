import { Alert, Anchor, Paper, PasswordInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { useImportNodes } from '../../api/fleet.ts';
import { showError } from '../../api/errors.ts';
import type { Node } from '../../api/types.ts';
import { ErrorState, PageHeader, SubmitOrCancel } from '../../components/common.tsx';
import { FingerprintInput } from './FingerprintInput.tsx';
import { plural } from '../../components/plural.ts';

export function NodeImportPage() {
  const params = useParams();
  const siteId = Number(params.siteId);
  const [result, setResult] = useState<{ nodes: Node[]; importedContainerCount: number } | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { apiUrl: '', username: 'root@pam', password: '', tlsVerify: true, tlsFingerprint: '' },
    validate: {
      apiUrl: (v) => (/^https:\/\//.test(v.trim()) ? null : 'An https:// URL of one cluster member'),
      username: (v) => (v.trim() ? null : 'Required'),
      password: (v) => (v ? null : 'Required'),
    },
  });
  const run = useImportNodes(siteId, {
    onSuccess: (data) => setResult(data),
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
        Every node of the cluster is added to this site, and their containers are adopted. The root password
        is stored sealed for the nodes, and only ever sent over a verified connection: a certificate this
        server trusts, or the one whose fingerprint you pin.
      </Text>
      {result ? (
        <Alert color="green" mb="md" title="Imported" data-testid="import-result">
          {plural(result.nodes.length, 'node')} and {plural(result.importedContainerCount, 'container')}:{' '}
          {result.nodes.map((n) => n.name).join(', ')}.{' '}
          <Anchor component={Link} to={`/sites/${siteId}/nodes`}>
            Back to nodes
          </Anchor>
        </Alert>
      ) : null}
      <Paper withBorder p="md" maw={620}>
        <form
          onSubmit={form.onSubmit((values) =>
            run.mutate({
              ...values,
              tlsFingerprint: values.tlsFingerprint.trim() || undefined,
            }),
          )}
          noValidate
        >
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
            <FingerprintInput {...form.getInputProps('tlsFingerprint')} />
            <Switch
              label="Verify TLS certificates against the trusted CAs"
              description="Off needs a pinned fingerprint: the password never goes over an unchecked connection"
              disabled={Boolean(form.values.tlsFingerprint.trim())}
              {...form.getInputProps('tlsVerify', { type: 'checkbox' })}
            />
            <SubmitOrCancel label="Import" loading={run.isPending} cancelTo={`/sites/${siteId}/nodes`} />
          </Stack>
        </form>
      </Paper>
    </>
  );
}
