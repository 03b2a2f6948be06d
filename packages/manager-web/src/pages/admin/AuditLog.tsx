import { Button, Group, NumberInput, Select, TextInput } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { auditCsvUrl, useAuditEvents, type AuditFilters } from '../../api/audit.ts';
import { useSites } from '../../api/fleet.ts';
import { useUsers } from '../../api/users.ts';
import { AuditTable } from '../../components/AuditTable.tsx';
import { PageHeader } from '../../components/common.tsx';

const NUMBER_FILTERS = ['user', 'site', 'container'] as const;
const TIME_FILTERS = ['from', 'to'] as const;

/** The filters the address holds (`?user=2001&action=container.`); times as the browser's local time. */
function filtersOf(params: URLSearchParams): AuditFilters {
  const filters: AuditFilters = {};
  for (const name of NUMBER_FILTERS) {
    const value = Number(params.get(name));
    if (Number.isInteger(value) && value > 0) filters[name] = value;
  }
  const action = params.get('action')?.trim();
  if (action) filters.action = action;
  for (const name of TIME_FILTERS) {
    const time = new Date(params.get(name) ?? '');
    if (!Number.isNaN(time.getTime())) filters[name] = time.toISOString();
  }
  return filters;
}

/** Administrators: every audited request and sign-in, filtered on the server, with a CSV export. */
export function AuditLogPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const events = useAuditEvents(filters);
  const users = useUsers();
  const sites = useSites();
  const set = (name: string, value: string | number | null | undefined) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null || value === undefined || value === '') next.delete(name);
        else next.set(name, String(value));
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  return (
    <>
      <PageHeader title="Audit log">
        <Button component="a" href={auditCsvUrl(filters)} variant="default" download>
          Export CSV
        </Button>
      </PageHeader>
      <Group mb="md" align="flex-end" wrap="wrap">
        <Select
          label="User"
          clearable
          searchable
          data={(users.data ?? []).map((user) => ({ value: String(user.uidNumber), label: user.uid }))}
          value={params.get('user')}
          onChange={(value) => set('user', value)}
        />
        <Select
          label="Site"
          clearable
          data={(sites.data ?? []).map((site) => ({ value: String(site.id), label: site.name }))}
          value={params.get('site')}
          onChange={(value) => set('site', value)}
        />
        <NumberInput
          label="Container id"
          min={1}
          allowDecimal={false}
          value={params.get('container') ?? ''}
          onChange={(value) => set('container', value)}
        />
        <TextInput
          label="Action"
          description="exact, or a prefix ending in ."
          placeholder="container."
          defaultValue={params.get('action') ?? ''}
          onBlur={(event) => set('action', event.currentTarget.value.trim())}
          onKeyDown={(event) => {
            if (event.key === 'Enter') set('action', event.currentTarget.value.trim());
          }}
        />
        <TextInput
          label="From"
          type="datetime-local"
          value={params.get('from') ?? ''}
          onChange={(event) => set('from', event.currentTarget.value)}
        />
        <TextInput
          label="To"
          type="datetime-local"
          value={params.get('to') ?? ''}
          onChange={(event) => set('to', event.currentTarget.value)}
        />
      </Group>
      <AuditTable
        query={events}
        testId="audit-table"
        names={{
          user: new Map((users.data ?? []).map((user) => [String(user.uidNumber), user.uid])),
          site: new Map((sites.data ?? []).map((site) => [String(site.id), site.name])),
        }}
      />
    </>
  );
}
