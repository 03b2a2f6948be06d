import { ConfirmButton, DataTable, type Column } from '@app/web-kit';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  useCollaborators,
  useContainer,
  useDeleteContainer,
  useInvalidateContainers,
  useSharing,
} from '../../api/containers.ts';
import { showError, showSuccess } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import type { Container, ContainerService } from '../../api/types.ts';
import {
  EmptyState,
  formatDate,
  PageHeader,
  QueryState,
  relativeTime,
  StatusBadge,
} from '../../components/common.tsx';
import { sshCommand } from './ContainerList.tsx';
import { JobLog } from './JobLog.tsx';
import { ContainerLogs } from './ContainerLogs.tsx';
import { MetricsGraph } from '../../components/MetricsGraph.tsx';
import { RestartButton, RestartPendingNotice } from './RestartAction.tsx';
import { PowerButtons } from './PowerButtons.tsx';
import { RunCommand } from './RunCommand.tsx';
import { TerminalButton } from './TerminalAccess.tsx';
import { ContainerJobHistory, FailedCreate, type ContainerPanelProps } from './ContainerJobs.tsx';
import { ContainerSize } from './ContainerSize.tsx';
import { Field } from '../../components/Field.tsx';

function serviceTarget(service: ContainerService, container: Container): ReactNode {
  if (service.httpService) {
    const http = service.httpService;
    const entry = container.httpEntries.find((e) => e.port === service.internalPort);
    const url =
      entry?.externalUrl ?? (http.domain ? `https://${http.externalHostname}.${http.domain}` : null);
    return url ? (
      <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm">
        {url}
      </Anchor>
    ) : (
      http.externalHostname
    );
  }
  if (service.transportService) {
    const t = service.transportService;
    return `${t.protocol.toUpperCase()} ${container.sshHost ?? 'site address'}:${t.externalPort}`;
  }
  return service.dnsService ? `SRV ${service.dnsService.dnsName}` : '—';
}

function serviceType(service: ContainerService) {
  if (service.httpService) return service.httpService.backendProtocol === 'https' ? 'HTTPS' : 'HTTP';
  if (service.transportService) return service.transportService.protocol.toUpperCase();
  return 'DNS SRV';
}

function Sharing({ siteId, container, canManage }: ContainerPanelProps) {
  const collaborators = useCollaborators(siteId, container);
  const { share, unshare } = useSharing(siteId, container.id);
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Said beside the field, where the eye already is, instead of in a toast over it.
  const [sharedWith, setSharedWith] = useState<string | null>(null);
  const add = (name: string) =>
    share.mutate(name, {
      onSuccess: () => {
        setSharedWith(name);
        setUsername('');
      },
      onError: (e) => setError(e.message),
    });
  const remove = (name: string) => unshare.mutate(name, { onError: (e) => showError(e) });
  const list = collaborators.data?.collaborators ?? [];
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        Sharing
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Collaborators see this container and its details but cannot change it.
      </Text>
      {list.length === 0 ? (
        <Text size="sm" mb="sm">
          Not shared.
        </Text>
      ) : (
        <Stack gap={4} mb="sm" data-testid="collaborators">
          {list.map((name) => (
            <Group key={name} justify="space-between">
              <Text size="sm">{name}</Text>
              {canManage ? (
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={() => remove(name)}
                  aria-label={`Stop sharing with ${name}`}
                >
                  Remove
                </Button>
              ) : null}
            </Group>
          ))}
        </Stack>
      )}
      {canManage ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setError(null);
            if (username.trim()) add(username.trim());
          }}
        >
          <Group align="flex-start" gap="xs">
            <TextInput
              aria-label="Share with username"
              placeholder="username"
              value={username}
              error={error}
              description={
                sharedWith ? (
                  <span role="status" data-testid="shared-with">
                    Shared with {sharedWith}.
                  </span>
                ) : undefined
              }
              onChange={(event) => {
                setUsername(event.currentTarget.value);
                setSharedWith(null);
              }}
              style={{ flex: 1 }}
            />
            <Button type="submit" loading={share.isPending}>
              Share
            </Button>
          </Group>
        </form>
      ) : null}
    </Card>
  );
}

function Details({ siteId, container }: { siteId: number; container: Container }) {
  const session = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const user = session.data?.user ?? '';
  const canManage = Boolean(session.data?.isAdmin) || container.owner === user;
  const jobParam = Number(params.get('job'));
  const jobId = jobParam || (container.status === 'creating' ? container.creationJobId : null);
  // The status shown is the last one read; while a restart or change job runs, say so beside it.
  const [finishedJob, setFinishedJob] = useState<number | null>(null);
  const applying = Boolean(jobParam) && finishedJob !== jobParam;
  const ssh = sshCommand(container, user);
  const refresh = useInvalidateContainers(siteId);
  const showJob = (id: number) => setParams({ job: String(id) }, { replace: true });

  const remove = useDeleteContainer(siteId);
  const removeNow = () =>
    remove.mutateAsync(container.id, {
      onSuccess: (result) => {
        showSuccess(`${container.hostname} deleted`);
        for (const warning of result?.dnsWarnings ?? []) showError(new Error(warning));
        navigate(`/sites/${siteId}/containers`);
      },
      onError: (error) => showError(error),
    });

  return (
    <Stack>
      <PageHeader
        title={
          <Group gap="sm">
            <span data-testid="container-hostname">{container.hostname}</span>
            <StatusBadge status={container.status} />
            {applying ? (
              <Badge variant="light" color="blue" leftSection={<Loader size={10} />} data-testid="job-active">
                job running
              </Badge>
            ) : null}
          </Group>
        }
      >
        {canManage ? (
          <>
            <PowerButtons siteId={siteId} container={container} onQueued={showJob} />
            <RestartButton siteId={siteId} container={container} onQueued={showJob} />
            <TerminalButton siteId={siteId} container={container} onQueued={showJob} />
            <Button
              variant="default"
              component={Link}
              to={`/sites/${siteId}/containers/${container.id}/edit`}
            >
              Edit
            </Button>
            <ConfirmButton
              size="sm"
              title={`Delete ${container.hostname}`}
              message="The container, its services and its DNS records are removed from the node. This cannot be undone."
              loading={remove.isPending}
              onConfirm={removeNow}
            >
              Delete
            </ConfirmButton>
          </>
        ) : null}
      </PageHeader>
      {!canManage ? (
        <Alert color="blue" data-testid="read-only">
          Shared with you by {container.owner}: read-only.
        </Alert>
      ) : null}
      <RestartPendingNotice siteId={siteId} container={container} canManage={canManage} onQueued={showJob} />
      {container.status === 'failed' ? (
        <FailedCreate siteId={siteId} container={container} canManage={canManage} />
      ) : null}
      {jobId ? (
        <JobLog
          jobId={jobId}
          onFinished={() => {
            setFinishedJob(jobId);
            refresh();
          }}
        />
      ) : null}
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
          <Field label="Owner">{container.owner}</Field>
          <Field label="Node">{container.nodeName ?? '—'}</Field>
          <Field label="IPv4">{container.ipv4Address ?? '—'}</Field>
          <Field label="MAC">{container.macAddress ?? '—'}</Field>
          <Field label="Image">{container.template}</Field>
          <Field label="Entrypoint">{container.entrypoint ?? 'image default'}</Field>
          <Field label="Created">{formatDate(container.createdAt)}</Field>
          <Field label="Last access">{relativeTime(container.lastAccessedAt)}</Field>
          <Field label="GPU">{container.nvidiaRequested ? 'requested' : 'no'}</Field>
          <Field label="Provider id">{container.containerId ?? '—'}</Field>
          <Field label="SSH">
            {ssh ? (
              <Group gap={4} wrap="wrap">
                {/* Whole and selectable on any width: it wraps rather than being cut off. */}
                <Code data-testid="ssh-command" style={{ whiteSpace: 'normal', wordBreak: 'break-all' }}>
                  {ssh}
                </Code>
                <CopyButton value={ssh}>
                  {({ copied, copy }) => (
                    <Button size="compact-xs" variant="subtle" onClick={copy}>
                      {copied ? 'Copied' : 'Copy'}
                    </Button>
                  )}
                </CopyButton>
              </Group>
            ) : (
              'no SSH service'
            )}
          </Field>
        </SimpleGrid>
        {canManage ? (
          <Card.Section withBorder inheritPadding py="sm" mt="md">
            <ContainerSize siteId={siteId} hostname={container.hostname} owner={container.owner} />
          </Card.Section>
        ) : null}
      </Card>
      <Card withBorder>
        <Title order={3} size="h5" mb="xs">
          Services
        </Title>
        {container.services.length === 0 ? (
          <EmptyState title="No services" />
        ) : (
          <DataTable
            data-testid="services-table"
            rows={container.services}
            rowKey={(s) => s.id}
            columns={serviceColumns(container)}
          />
        )}
      </Card>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Title order={3} size="h5" mb="xs">
            Environment variables
          </Title>
          {Object.keys(container.environmentVars).length === 0 ? (
            <Text size="sm" c="dimmed">
              None.
            </Text>
          ) : (
            <Table fz="sm">
              <Table.Tbody>
                {Object.entries(container.environmentVars).map(([key, value]) => (
                  <Table.Tr key={key}>
                    <Table.Td ff="monospace">{key}</Table.Td>
                    <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
                      {value}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Card>
        <Sharing siteId={siteId} container={container} canManage={canManage} />
      </SimpleGrid>
      {canManage ? <RunCommand siteId={siteId} container={container} /> : null}
      <MetricsGraph siteId={siteId} subject="container" id={container.id} />
      <ContainerLogs siteId={siteId} container={container} />
      <ContainerJobHistory siteId={siteId} container={container} />
    </Stack>
  );
}

export function ContainerDetailPage() {
  const params = useParams();
  const siteId = Number(params.siteId);
  const id = Number(params.id);
  const container = useContainer(siteId, id);
  return (
    <>
      <Anchor component={Link} to={`/sites/${siteId}/containers`} size="sm">
        ← Containers
      </Anchor>
      <QueryState query={container} isEmpty={() => false}>
        {(data) => <Details siteId={siteId} container={data} />}
      </QueryState>
    </>
  );
}

const serviceColumns = (container: Container): Array<Column<ContainerService>> => [
  { key: 'type', header: 'Type', phone: 'title', cell: (s) => serviceType(s) },
  { key: 'port', header: 'Port', align: 'end', cell: (s) => s.internalPort },
  { key: 'target', header: 'Reachable at', cell: (s) => serviceTarget(s, container) },
  {
    key: 'signIn',
    header: 'Sign-in',
    cell: (s) => (s.httpService ? (s.httpService.authRequired ? 'required' : 'public') : '—'),
  },
  { key: 'lastAccess', header: 'Last access', cell: (s) => relativeTime(s.lastAccessedAt) },
];
