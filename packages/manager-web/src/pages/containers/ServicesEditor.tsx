import {
  ActionIcon,
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useRef } from 'react';
import type { ContainerService, NewContainerForm, ServiceType, ServiceUpdate } from '../../api/types.ts';
import { AddDomainInline } from './AddDomainInline.tsx';

export interface ServiceRow {
  key: string;
  id?: number;
  type: ServiceType;
  internalPort: number | string;
  externalHostname: string;
  externalDomainId: string | null;
  dnsName: string;
  authRequired: boolean;
  /** Addition to the spec's ServiceInput: plain HTTP is redirected to HTTPS. */
  redirectHttps: boolean;
  /** Addition to the spec's ServiceInput: HTTPS answers carry Strict-Transport-Security. */
  hsts: boolean;
  deleted?: boolean;
  /** Shown for existing services: what the manager assigned. */
  assigned?: string;
}

const OFF = { authRequired: false, redirectHttps: false, hsts: false };

/** An HTTP service's on/off settings, each a switch on its row. */
const TOGGLES: Array<{ name: keyof typeof OFF; label: string; hint?: string }> = [
  { name: 'authRequired', label: 'Require sign-in' },
  {
    name: 'redirectHttps',
    label: 'Redirect HTTP to HTTPS',
    hint: 'Once the site agent has a certificate for the host',
  },
  { name: 'hsts', label: 'HSTS', hint: 'Browsers then refuse plain HTTP to this host for a year' },
];

let counter = 0;
export const rowKey = () => `row-${(counter += 1)}`;

export const TYPES: Array<{ value: ServiceType; label: string }> = [
  { value: 'http', label: 'HTTP' },
  { value: 'https', label: 'HTTPS backend' },
  { value: 'tcp', label: 'TCP' },
  { value: 'udp', label: 'UDP' },
  { value: 'srv', label: 'DNS SRV' },
];

const isHttp = (type: ServiceType) => type === 'http' || type === 'https';

export function newRow(
  type: ServiceType,
  port: number | string,
  defaults: Partial<ServiceRow> = {},
): ServiceRow {
  return {
    key: rowKey(),
    type,
    internalPort: port,
    externalHostname: '',
    externalDomainId: null,
    dnsName: '',
    ...OFF,
    ...defaults,
  };
}

export function rowFromService(service: ContainerService): ServiceRow {
  const base = {
    key: rowKey(),
    id: service.id,
    internalPort: service.internalPort,
    dnsName: '',
    externalHostname: '',
    ...OFF,
  };
  if (service.httpService) {
    const http = service.httpService;
    return {
      ...base,
      type: http.backendProtocol === 'https' ? 'https' : 'http',
      externalHostname: http.externalHostname,
      externalDomainId: String(http.externalDomainId),
      authRequired: http.authRequired,
      redirectHttps: http.redirectHttps,
      hsts: http.hsts,
      assigned: http.domain ? `${http.externalHostname}.${http.domain}` : http.externalHostname,
    };
  }
  if (service.transportService) {
    const transport = service.transportService;
    return {
      ...base,
      type: transport.protocol,
      externalDomainId: null,
      assigned: `external port ${transport.externalPort}`,
    };
  }
  return {
    ...base,
    type: 'srv',
    externalDomainId: null,
    dnsName: service.dnsService?.dnsName ?? '',
    assigned: service.dnsService ? `SRV ${service.dnsService.dnsName}` : undefined,
  };
}

/** The API's `services` object: keys are the row positions (so field errors point at rows). */
export function servicesBody(rows: ServiceRow[], forUpdate: boolean): Record<string, ServiceUpdate> {
  const body: Record<string, ServiceUpdate> = {};
  rows.forEach((row, index) => {
    if (row.id !== undefined && row.deleted) {
      body[index] = { id: row.id, deleted: true } as ServiceUpdate;
      return;
    }
    if (row.deleted) return;
    const entry: ServiceUpdate = { type: row.type, internalPort: Number(row.internalPort) };
    if (forUpdate && row.id !== undefined) entry.id = row.id;
    if (isHttp(row.type)) {
      entry.externalHostname = row.externalHostname.trim();
      if (row.externalDomainId) entry.externalDomainId = Number(row.externalDomainId);
      entry.authRequired = row.authRequired;
      entry.redirectHttps = row.redirectHttps;
      entry.hsts = row.hsts;
    }
    if (row.type === 'srv') entry.dnsName = row.dnsName.trim();
    body[index] = entry;
  });
  return body;
}

export function validateRows(rows: ServiceRow[]): Record<string, string> {
  const errors: Record<string, string> = {};
  rows.forEach((row, index) => {
    if (row.deleted || row.id !== undefined) return;
    const port = Number(row.internalPort);
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      errors[`services.${index}.internalPort`] = '1–65535';
    if (isHttp(row.type)) {
      if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i.test(row.externalHostname.trim()))
        errors[`services.${index}.externalHostname`] = 'A DNS label';
      if (!row.externalDomainId) errors[`services.${index}.externalDomainId`] = 'Choose a domain';
    }
    if (row.type === 'srv' && !row.dnsName.trim())
      errors[`services.${index}.dnsName`] = 'e.g. _minecraft._tcp';
  });
  return errors;
}

export function ServicesEditor({
  rows,
  onChange,
  form,
  errors,
  hostname,
}: {
  rows: ServiceRow[];
  onChange: (rows: ServiceRow[]) => void;
  form: NewContainerForm | undefined;
  errors: Record<string, unknown>;
  hostname: string;
}) {
  const domains = (form?.externalDomains ?? []).map((d) => ({ value: String(d.id), label: d.name }));
  const update = (index: number, patch: Partial<ServiceRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  // A domain added in place arrives after a request: it goes to the rows as they are by then.
  const latest = useRef(rows);
  latest.current = rows;
  const adoptDomain = (id: string) =>
    onChange(
      latest.current.map((row) =>
        isHttp(row.type) && row.id === undefined && !row.externalDomainId
          ? { ...row, externalDomainId: id }
          : row,
      ),
    );
  const error = (index: number, field: string) => {
    const value =
      errors[`services.${index}.${field}`] ?? (field === 'type' ? errors[`services.${index}`] : undefined);
    return typeof value === 'string' ? value : undefined;
  };
  const add = (type: ServiceType, port: number) =>
    onChange([
      ...rows,
      newRow(
        type,
        port,
        isHttp(type) ? { externalHostname: hostname, externalDomainId: domains[0]?.value ?? null } : {},
      ),
    ]);

  return (
    <Stack gap="xs">
      {rows.every((row) => row.deleted) ? (
        <Text size="sm" c="dimmed">
          No services: the container is reachable only inside the site.
        </Text>
      ) : null}
      {rows.map((row, index) =>
        row.deleted ? null : (
          <Paper key={row.key} withBorder p="xs" data-testid="service-row">
            {/* Visible labels name each input; the accessible names add the row's number. */}
            <Group gap="xs" align="flex-end" wrap="wrap">
              <Select
                label="Type"
                aria-label={`Service ${index + 1} type`}
                data={TYPES}
                value={row.type}
                allowDeselect={false}
                disabled={row.id !== undefined}
                error={error(index, 'type')}
                onChange={(value) =>
                  value &&
                  update(index, {
                    type: value as ServiceType,
                    ...(isHttp(value as ServiceType) && !row.externalHostname
                      ? {
                          externalHostname: hostname,
                          externalDomainId: row.externalDomainId ?? domains[0]?.value ?? null,
                        }
                      : {}),
                  })
                }
                w={150}
              />
              <NumberInput
                label="Internal port"
                aria-label={`Service ${index + 1} internal port`}
                min={1}
                max={65535}
                value={row.internalPort}
                disabled={row.id !== undefined}
                error={error(index, 'internalPort')}
                onChange={(value) => update(index, { internalPort: value })}
                w={110}
              />
              {isHttp(row.type) ? (
                <>
                  <TextInput
                    label="External hostname"
                    aria-label={`Service ${index + 1} external hostname`}
                    value={row.externalHostname}
                    disabled={row.id !== undefined}
                    error={error(index, 'externalHostname')}
                    onChange={(event) => update(index, { externalHostname: event.currentTarget.value })}
                    style={{ flex: '1 1 140px' }}
                  />
                  <Select
                    label="Domain"
                    aria-label={`Service ${index + 1} external domain`}
                    placeholder={domains.length ? undefined : 'no external domains'}
                    data={domains}
                    value={row.externalDomainId}
                    disabled={row.id !== undefined}
                    error={error(index, 'externalDomainId')}
                    onChange={(value) => update(index, { externalDomainId: value })}
                    style={{ flex: '1 1 160px' }}
                  />
                  {form && !domains.length && row.id === undefined ? (
                    <AddDomainInline siteId={form.siteId} onAdded={adoptDomain} />
                  ) : null}
                  {TOGGLES.map(({ name, label, hint }) => (
                    <Switch
                      key={name}
                      label={label}
                      title={hint}
                      checked={row[name]}
                      onChange={(event) => update(index, { [name]: event.currentTarget.checked })}
                      mb={8}
                    />
                  ))}
                </>
              ) : null}
              {row.type === 'srv' ? (
                <TextInput
                  label="DNS name"
                  aria-label={`Service ${index + 1} DNS name`}
                  placeholder="_service._tcp"
                  value={row.dnsName}
                  disabled={row.id !== undefined}
                  error={error(index, 'dnsName')}
                  onChange={(event) => update(index, { dnsName: event.currentTarget.value })}
                  style={{ flex: '1 1 160px' }}
                />
              ) : null}
              {row.type === 'tcp' || row.type === 'udp' ? (
                <Text size="xs" c="dimmed" mb={8}>
                  {row.assigned ?? 'external port assigned on save'}
                </Text>
              ) : row.assigned ? (
                <Badge variant="light" mb={8} tt="none" data-testid="assigned-name">
                  {row.assigned}
                </Badge>
              ) : null}
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                ml="auto"
                aria-label={`Remove service ${index + 1}`}
                onClick={() =>
                  row.id !== undefined
                    ? update(index, { deleted: true })
                    : onChange(rows.filter((_, i) => i !== index))
                }
              >
                ✕
              </ActionIcon>
            </Group>
          </Paper>
        ),
      )}
      <Group gap="xs">
        <Button size="xs" variant="light" onClick={() => add('http', 80)}>
          + HTTP
        </Button>
        <Button size="xs" variant="light" onClick={() => add('tcp', 22)}>
          + SSH
        </Button>
        <Button size="xs" variant="light" onClick={() => add('tcp', 8080)}>
          + TCP
        </Button>
        <Button size="xs" variant="light" onClick={() => add('udp', 53)}>
          + UDP
        </Button>
        <Button size="xs" variant="light" onClick={() => add('srv', 25565)}>
          + SRV
        </Button>
      </Group>
    </Stack>
  );
}
