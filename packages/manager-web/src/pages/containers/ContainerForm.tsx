import {
  Alert,
  Autocomplete,
  Button,
  Fieldset,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Table,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, ApiError } from '../../api/client.ts';
import { useContainer, useInvalidateContainers, useNewContainerForm } from '../../api/containers.ts';
import { showError, showSuccess } from '../../api/errors.ts';
import { FormErrorSummary, useFormGuide } from '../../components/FormGuide.tsx';
import { useSession } from '../../api/session.ts';
import { useSettings } from '../../api/settings.ts';
import type { Container, EnvVar, NewContainerForm } from '../../api/types.ts';
import { useUsers } from '../../api/users.ts';
import { KeyValueEditor } from '../../components/KeyValueEditor.tsx';
import { ErrorState, PageHeader, QueryState } from '../../components/common.tsx';
import {
  newRow,
  rowFromService,
  ServicesEditor,
  servicesBody,
  validateRows,
  type ServiceRow,
} from './ServicesEditor.tsx';
import { noInstanceReason } from './ContainerJobs.tsx';
import { NewContainerSize } from './ContainerSize.tsx';
import { plural } from '../../components/plural.ts';

/** Images offered without typing; anything else goes through "Custom image". */
export const TEMPLATES = [
  'docker.io/library/debian:12',
  'docker.io/library/ubuntu:24.04',
  'docker.io/library/alpine:3.20',
  'docker.io/library/nginx:stable',
  'docker.io/library/postgres:17',
];

const HOSTNAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

interface Values {
  hostname: string;
  source: 'template' | 'custom';
  template: string;
  customTemplate: string;
  entrypoint: string;
  nvidiaRequested: boolean;
  username: string;
  collaborators: string[];
  environmentVars: EnvVar[];
  services: ServiceRow[];
}

/** The site's default variables: the settings hold them, which only administrators may read. */
function useDefaultEnv(isAdmin: boolean) {
  const settings = useSettings(isAdmin);
  return settings.data?.defaultContainerEnvVars ?? [];
}

function DefaultEnv({ rows }: { rows: Array<{ key: string; value: string; description?: string }> }) {
  if (!rows.length) return null;
  return (
    <Stack gap={4} mb="xs">
      <Text size="sm" c="dimmed">
        Site defaults (a variable below with the same name overrides it):
      </Text>
      <Table withTableBorder fz="sm" data-testid="default-env">
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.key}>
              <Table.Td ff="monospace">{row.key}</Table.Td>
              <Table.Td ff="monospace">{row.value}</Table.Td>
              <Table.Td c="dimmed">{row.description}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

function CreateForm({ siteId, bootstrap }: { siteId: number; bootstrap: NewContainerForm }) {
  const session = useSession();
  const isAdmin = Boolean(session.data?.isAdmin);
  const navigate = useNavigate();
  const invalidate = useInvalidateContainers(siteId);
  const defaults = useDefaultEnv(isAdmin);
  const users = useUsers(isAdmin);
  const [lookup, setLookup] = useState<{
    busy: boolean;
    message: string | null;
    ok: boolean;
    /** The image the last lookup was for. */
    image?: string;
  }>({ busy: false, message: null, ok: true });
  // Create after a failed lookup of the same image only when asked twice: its job would fail.
  const [createAnyway, setCreateAnyway] = useState(false);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      hostname: '',
      source: 'template',
      template: TEMPLATES[0]!,
      customTemplate: '',
      entrypoint: '',
      nvidiaRequested: false,
      username: '',
      collaborators: [],
      environmentVars: [],
      services: [],
    },
    validate: (values) => ({
      hostname: HOSTNAME.test(values.hostname) ? null : 'Lower-case letters, digits and dashes (a DNS label)',
      template: values.source === 'template' && !values.template ? 'Choose a template' : null,
      customTemplate:
        values.source === 'custom' && !values.customTemplate.trim() ? 'An image reference' : null,
      ...validateRows(values.services),
    }),
  });
  const guide = useFormGuide(form);
  const image = form.values.source === 'custom' ? form.values.customTemplate.trim() : form.values.template;

  const runLookup = async () => {
    if (!image) return;
    setLookup({ busy: true, message: null, ok: true });
    try {
      const meta = await api.get('/sites/{siteId}/containers/metadata', {
        path: { siteId },
        query: { image },
      });
      const hostname = form.values.hostname;
      const httpPorts = new Set(meta.httpServices.map((s) => s.port));
      const domain = bootstrap.externalDomains[0] ? String(bootstrap.externalDomains[0].id) : null;
      const rows: ServiceRow[] = [
        ...meta.httpServices.map((s) =>
          newRow('http', s.port, {
            externalHostname: `${hostname}${s.hostnameSuffix ?? ''}`,
            externalDomainId: domain,
            authRequired: Boolean(s.requireAuth),
          }),
        ),
        ...meta.ports
          .filter((p) => !httpPorts.has(p.port))
          .map((p) => newRow(p.protocol.toLowerCase() === 'udp' ? 'udp' : 'tcp', p.port)),
      ];
      form.setValues({
        services: rows,
        environmentVars: meta.env,
        entrypoint: meta.entrypoint ?? form.values.entrypoint,
      });
      setLookup({
        busy: false,
        ok: true,
        image,
        message: `Pre-filled ${plural(rows.length, 'service')}, ${plural(meta.env.length, 'variable')}${meta.entrypoint ? ' and the entrypoint' : ''} from ${image}.`,
      });
    } catch (error) {
      setCreateAnyway(false);
      setLookup({
        busy: false,
        ok: false,
        image,
        message:
          error instanceof ApiError && error.code === 'image_not_found'
            ? `No image ${image} was found.`
            : error instanceof Error
              ? error.message
              : String(error),
      });
    }
  };

  const lookupFailed = !lookup.ok && lookup.image === image;
  const submit = (values: Values) => {
    if (lookupFailed && !createAnyway) setCreateAnyway(true);
    else create.mutate(values);
  };

  const create = useMutation({
    mutationFn: (values: Values) =>
      api.post('/sites/{siteId}/containers', {
        path: { siteId },
        body: {
          hostname: values.hostname,
          template: values.source === 'custom' ? 'custom' : values.template,
          ...(values.source === 'custom' ? { customTemplate: values.customTemplate.trim() } : {}),
          entrypoint: values.entrypoint.trim() || undefined,
          nvidiaRequested: values.nvidiaRequested,
          ...(isAdmin && values.username ? { username: values.username } : {}),
          collaborators: values.collaborators,
          environmentVars: values.environmentVars.filter((row) => row.key.trim()),
          services: servicesBody(values.services, false),
        },
      }),
    onSuccess: (result) => {
      showSuccess(`Creating ${result.hostname}`);
      invalidate();
      navigate(`/sites/${siteId}/containers/${result.containerId}?job=${result.jobId}`);
    },
    onError: (error) => guide.showError(error, { customTemplate: 'customTemplate' }),
  });

  return (
    <form ref={guide.ref} onSubmit={form.onSubmit(submit, guide.failed)} noValidate>
      <Stack maw={920}>
        <Fieldset legend="Container">
          <Stack>
            <TextInput
              label="Hostname"
              description="Unique across the manager; also the default name of its HTTP services"
              required
              autoFocus
              {...form.getInputProps('hostname')}
            />
            <SegmentedControl
              data={[
                { value: 'template', label: 'Template' },
                { value: 'custom', label: 'Custom image' },
              ]}
              {...form.getInputProps('source')}
            />
            <Group align="flex-end" wrap="wrap">
              {form.values.source === 'template' ? (
                <Select
                  label="Template"
                  data={TEMPLATES}
                  allowDeselect={false}
                  searchable
                  style={{ flex: '1 1 260px' }}
                  {...form.getInputProps('template')}
                />
              ) : (
                <TextInput
                  label="Image"
                  placeholder="ghcr.io/owner/app:1.2"
                  required
                  style={{ flex: '1 1 260px' }}
                  {...form.getInputProps('customTemplate')}
                />
              )}
              <Button
                variant="light"
                onClick={() => void runLookup()}
                loading={lookup.busy}
                disabled={!image}
              >
                Look up image
              </Button>
            </Group>
            {lookup.message ? (
              <Alert color={lookup.ok ? 'blue' : 'red'} data-testid="lookup-result">
                {lookup.message}
              </Alert>
            ) : null}
            <TextInput label="Entrypoint" placeholder="image default" {...form.getInputProps('entrypoint')} />
            <Switch
              label={
                bootstrap.nvidiaAvailable
                  ? 'Request an NVIDIA GPU'
                  : 'Request an NVIDIA GPU (no GPU node in this site)'
              }
              disabled={!bootstrap.nvidiaAvailable}
              {...form.getInputProps('nvidiaRequested', { type: 'checkbox' })}
            />
          </Stack>
        </Fieldset>
        <Fieldset legend="Size">
          <NewContainerSize
            siteId={siteId}
            // Only a DNS label goes into the request's path: "..", say, would be resolved by the browser.
            hostname={HOSTNAME.test(form.values.hostname) ? form.values.hostname : ''}
            owner={(isAdmin && form.values.username.trim()) || (session.data?.user ?? '')}
          />
        </Fieldset>
        <Fieldset legend="Services">
          <ServicesEditor
            rows={form.values.services}
            onChange={(rows) => form.setFieldValue('services', rows)}
            form={bootstrap}
            errors={form.errors}
            hostname={form.values.hostname}
          />
        </Fieldset>
        <Fieldset legend="Environment variables">
          <DefaultEnv rows={defaults} />
          <KeyValueEditor
            rows={form.values.environmentVars}
            onChange={(rows) => form.setFieldValue('environmentVars', rows)}
            prefix="environmentVars"
            errors={form.errors}
          />
        </Fieldset>
        <Fieldset legend="Access">
          <Stack>
            {isAdmin ? (
              <Autocomplete
                label="Owner"
                description="Leave blank to own it yourself"
                data={users.data?.map((u) => u.uid) ?? []}
                {...form.getInputProps('username')}
              />
            ) : null}
            <TagsInput
              label="Collaborators"
              description="They can see the container and its details, not change it. Press Enter after each name."
              data={users.data?.map((u) => u.uid) ?? []}
              {...form.getInputProps('collaborators')}
            />
          </Stack>
        </Fieldset>
        <Group align="flex-start">
          <Button
            type="submit"
            loading={create.isPending}
            color={createAnyway && lookupFailed ? 'red' : undefined}
          >
            {createAnyway && lookupFailed ? 'Create anyway' : 'Create container'}
          </Button>
          <Button variant="default" component={Link} to={`/sites/${siteId}/containers`}>
            Cancel
          </Button>
          <FormErrorSummary problems={guide.summary} />
          {createAnyway && lookupFailed ? (
            <Alert color="red" role="alert" data-testid="image-warning" maw={420}>
              The lookup of {image} failed: its create job will fail unless the node can pull it. Check the
              image name, or create anyway.
            </Alert>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}

export function ContainerCreatePage() {
  const siteId = Number(useParams().siteId);
  const bootstrap = useNewContainerForm(siteId);
  return (
    <>
      <PageHeader title="New container" />
      <QueryState query={bootstrap} isEmpty={() => false}>
        {(data) => <CreateForm siteId={siteId} bootstrap={data} />}
      </QueryState>
    </>
  );
}

/** Whether the form changes what only a restart applies: the environment or the entrypoint. */
function needsRestart(container: Container, values: EditValues): boolean {
  const environment = Object.fromEntries(
    values.environmentVars.filter((row) => row.key.trim()).map((row) => [row.key.trim(), row.value]),
  );
  const before = container.environmentVars;
  const sameEnvironment =
    Object.keys(environment).length === Object.keys(before).length &&
    Object.entries(environment).every(([key, value]) => before[key] === value);
  return !sameEnvironment || (values.entrypoint.trim() || null) !== container.entrypoint;
}

/** What saving will do to the running container, said before Save. */
function restartAdvice(container: Container, changed: boolean, restart: boolean): string {
  if (restart) return 'The container restarts after saving: its services are unavailable for a moment.';
  if (changed || container.restartPending) {
    return 'The environment and entrypoint changes take effect at the next restart: turn this on to restart now, or restart later from the container page.';
  }
  return 'Service changes take effect without a restart.';
}

interface EditValues {
  entrypoint: string;
  username: string;
  environmentVars: EnvVar[];
  services: ServiceRow[];
  restart: boolean;
}

function EditForm({
  siteId,
  container,
  bootstrap,
}: {
  siteId: number;
  container: Container;
  bootstrap: NewContainerForm | undefined;
}) {
  const session = useSession();
  const isAdmin = Boolean(session.data?.isAdmin);
  const navigate = useNavigate();
  const invalidate = useInvalidateContainers(siteId);
  const users = useUsers(isAdmin);
  const form = useForm<EditValues>({
    mode: 'controlled',
    initialValues: {
      entrypoint: container.entrypoint ?? '',
      username: container.owner,
      environmentVars: Object.entries(container.environmentVars).map(([key, value]) => ({ key, value })),
      services: container.services.map(rowFromService),
      restart: false,
    },
    validate: (values) => validateRows(values.services),
  });
  const guide = useFormGuide(form);
  const save = useMutation({
    mutationFn: (values: EditValues) =>
      api.put('/sites/{siteId}/containers/{id}', {
        path: { siteId, id: container.id },
        body: {
          entrypoint: values.entrypoint.trim() || null,
          environmentVars: values.environmentVars.filter((row) => row.key.trim()),
          services: servicesBody(values.services, true),
          ...(isAdmin && values.username && values.username !== container.owner
            ? { username: values.username }
            : {}),
          restart: values.restart,
        },
      }),
    onSuccess: (result) => {
      showSuccess(result.message || 'Saved');
      for (const warning of result.dnsWarnings ?? []) showError(new Error(warning));
      invalidate();
      navigate(`/sites/${siteId}/containers/${container.id}${result.jobId ? `?job=${result.jobId}` : ''}`);
    },
    onError: (error) => guide.showError(error),
  });
  return (
    <form ref={guide.ref} onSubmit={form.onSubmit((values) => save.mutate(values), guide.failed)} noValidate>
      <Stack maw={920}>
        <Fieldset legend="Container">
          <Stack>
            <TextInput label="Entrypoint" placeholder="image default" {...form.getInputProps('entrypoint')} />
            {isAdmin ? (
              <Autocomplete
                label="Owner"
                data={users.data?.map((u) => u.uid) ?? []}
                {...form.getInputProps('username')}
              />
            ) : null}
          </Stack>
        </Fieldset>
        <Fieldset legend="Services">
          <Text size="xs" c="dimmed" mb="xs">
            Existing services can be removed or have sign-in toggled; add new ones below.
          </Text>
          <ServicesEditor
            rows={form.values.services}
            onChange={(rows) => form.setFieldValue('services', rows)}
            form={bootstrap}
            errors={form.errors}
            hostname={container.hostname}
          />
        </Fieldset>
        <Fieldset legend="Environment variables">
          <KeyValueEditor
            rows={form.values.environmentVars}
            onChange={(rows) => form.setFieldValue('environmentVars', rows)}
            prefix="environmentVars"
            errors={form.errors}
          />
        </Fieldset>
        <Switch
          label="Restart the container after saving"
          disabled={Boolean(noInstanceReason(container))}
          description={
            noInstanceReason(container) ??
            restartAdvice(container, needsRestart(container, form.values), form.values.restart)
          }
          data-testid="restart-after-saving"
          {...form.getInputProps('restart', { type: 'checkbox' })}
        />
        <Group align="flex-start">
          <Button type="submit" loading={save.isPending}>
            Save changes
          </Button>
          <Button variant="default" component={Link} to={`/sites/${siteId}/containers/${container.id}`}>
            Cancel
          </Button>
          <FormErrorSummary problems={guide.summary} />
        </Group>
      </Stack>
    </form>
  );
}

export function ContainerEditPage() {
  const params = useParams();
  const siteId = Number(params.siteId);
  const id = Number(params.id);
  const container = useContainer(siteId, id);
  const bootstrap = useNewContainerForm(siteId);
  const session = useSession();
  return (
    <>
      <PageHeader title={`Edit ${container.data?.hostname ?? 'container'}`} />
      <QueryState query={container} isEmpty={() => false}>
        {(data) =>
          session.data && !session.data.isAdmin && data.owner !== session.data.user ? (
            <ErrorState error={new Error('Only the owner or an administrator can change this container.')} />
          ) : (
            <EditForm siteId={siteId} container={data} bootstrap={bootstrap.data} />
          )
        }
      </QueryState>
    </>
  );
}
