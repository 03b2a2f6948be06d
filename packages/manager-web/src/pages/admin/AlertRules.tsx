import { useLocalView, type Column } from '@app/web-kit';
import {
  Checkbox,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  useAlertRules,
  useDeleteAlertRule,
  useSaveAlertRule,
  type AlertRuleBody,
} from '../../api/alert-rules.ts';
import { showError, showSuccess } from '../../api/errors.ts';
import type { AlertRule } from '../../api/types.ts';
import { DialogFormActions, useFormGuide } from '../../components/FormGuide.tsx';
import { EmptyState } from '../../components/common.tsx';
import { CrudPage } from '../../components/CrudPage.tsx';
import { isTargetScope, useScopeTargets, type ScopeTargets } from '../../api/alert-targets.ts';
import { scopeLabel, ScopeTargetSelect } from './AlertScopeTarget.tsx';

const METRICS: Record<AlertRule['metric'], string> = {
  cpuPercent: 'CPU (%)',
  memoryPercent: 'Memory (%)',
  diskPercent: 'Disk (%)',
  netInBytesPerSecond: 'Network in (bytes/s)',
  netOutBytesPerSecond: 'Network out (bytes/s)',
};
const SCOPES: Record<AlertRule['scope'], string> = {
  containers: 'All containers',
  nodes: 'All nodes',
  site: 'A site (its nodes and containers)',
  node: 'A node (and its containers)',
  container: 'One container (its owner is told too)',
};
const options = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));

interface RuleValues {
  name: string;
  metric: AlertRule['metric'];
  comparison: AlertRule['comparison'];
  threshold: number | string;
  durationSeconds: number | string;
  scope: AlertRule['scope'];
  /** The id of the chosen site, node or container ('' for none). */
  scopeId: string;
  email: boolean;
  webhookUrl: string;
  webhookSecret: string;
}

const ruleBody = (values: RuleValues): AlertRuleBody => ({
  name: values.name.trim(),
  metric: values.metric,
  comparison: values.comparison,
  threshold: Number(values.threshold),
  durationSeconds: Number(values.durationSeconds),
  scope: values.scope,
  scopeId: values.scopeId === '' ? null : Number(values.scopeId),
  email: values.email,
  webhookUrl: values.webhookUrl.trim() || null,
  webhookSecret: values.webhookSecret || undefined,
});

function RuleForm({ rule, onDone }: { rule: AlertRule | null; onDone: () => void }) {
  const form = useForm<RuleValues>({
    mode: 'controlled',
    initialValues: {
      name: rule?.name ?? '',
      metric: rule?.metric ?? 'cpuPercent',
      comparison: rule?.comparison ?? 'above',
      threshold: rule?.threshold ?? 90,
      durationSeconds: rule?.durationSeconds ?? 300,
      scope: rule?.scope ?? 'containers',
      scopeId: rule?.scopeId === null || rule?.scopeId === undefined ? '' : String(rule.scopeId),
      email: rule?.email ?? false,
      webhookUrl: rule?.webhookUrl ?? '',
      webhookSecret: '',
    },
    validate: {
      name: (v) => (v.trim() ? null : 'Required'),
      scopeId: (v, values) => (isTargetScope(values.scope) && !v ? `Choose a ${values.scope}` : null),
    },
  });
  const targets = useScopeTargets([form.values.scope]);
  const guide = useFormGuide(form);
  const save = useSaveAlertRule(rule, {
    onSuccess: () => {
      showSuccess('Alert rule saved');
      onDone();
    },
    onError: (error) => guide.showError(error),
  });
  return (
    <form
      ref={guide.ref}
      onSubmit={form.onSubmit((values) => save.mutate(ruleBody(values)), guide.failed)}
      noValidate
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
          <Select
            label="Metric"
            data={options(METRICS)}
            allowDeselect={false}
            {...form.getInputProps('metric')}
          />
          <Select
            label="Comparison"
            data={options({ above: 'Above', below: 'Below' })}
            allowDeselect={false}
            {...form.getInputProps('comparison')}
          />
          <NumberInput label="Threshold" min={0} {...form.getInputProps('threshold')} />
          <NumberInput
            label="Duration (seconds)"
            description="How long the condition must hold"
            min={0}
            {...form.getInputProps('durationSeconds')}
          />
          <Select
            label="Scope"
            data={options(SCOPES)}
            allowDeselect={false}
            {...form.getInputProps('scope')}
            onChange={(scope) => {
              form.setFieldValue('scope', scope as AlertRule['scope']);
              form.setFieldValue('scopeId', '');
            }}
          />
          {isTargetScope(form.values.scope) ? (
            <ScopeTargetSelect
              key={form.values.scope}
              scope={form.values.scope}
              targets={targets}
              value={form.values.scopeId}
              onChange={(id) => form.setFieldValue('scopeId', id)}
              error={form.errors.scopeId}
              onRefuse={(message) => form.setFieldError('scopeId', message)}
            />
          ) : null}
          <Checkbox
            label="E-mail the administrators (when SMTP is set up)"
            {...form.getInputProps('email', { type: 'checkbox' })}
          />
          <TextInput
            label="Webhook URL"
            placeholder="https://hooks.example.com/alerts"
            {...form.getInputProps('webhookUrl')}
          />
          <PasswordInput
            label="Webhook secret"
            description={
              rule?.hasWebhookSecret ? 'Stored; leave blank to keep it' : 'Signs each body (X-Signature-256)'
            }
            autoComplete="off"
            {...form.getInputProps('webhookSecret')}
          />
        </SimpleGrid>
        <DialogFormActions problems={guide.summary} saving={save.isPending} onCancel={onDone} />
      </Stack>
    </form>
  );
}

const ruleColumns = (targets: ScopeTargets): Array<Column<AlertRule>> => [
  { key: 'name', header: 'Name', phone: 'title', sortValue: (r) => r.name, cell: (r) => r.name },
  {
    key: 'condition',
    header: 'Condition',
    cell: (r) => `${METRICS[r.metric]} ${r.comparison} ${r.threshold} for ${r.durationSeconds} s`,
  },
  {
    key: 'scope',
    header: 'Scope',
    sortValue: (r) => r.scope,
    cell: (r) => scopeLabel(r, targets, SCOPES[r.scope]),
  },
  {
    key: 'channels',
    header: 'Channels',
    cell: (r) => (
      <Text size="sm">
        {['notification', r.email ? 'e-mail' : null, r.webhookUrl ? 'webhook' : null]
          .filter(Boolean)
          .join(', ')}
      </Text>
    ),
  },
];

export function AlertRulesPage() {
  const [view, changeView] = useLocalView({ key: 'name', direction: 'ascending' });
  const rules = useAlertRules();
  const targets = useScopeTargets((rules.data ?? []).map((r) => r.scope));
  const remove = useDeleteAlertRule({
    onSuccess: () => showSuccess('Alert rule deleted'),
    onError: (error) => showError(error),
  });
  return (
    <CrudPage
      title="Alert rules"
      newLabel="New rule"
      newTitle="New alert rule"
      query={rules}
      empty={
        <EmptyState title="No alert rules">
          A rule tells the administrators when a figure of the metrics stays past a threshold.
        </EmptyState>
      }
      columns={ruleColumns(targets)}
      table={{
        'data-testid': 'alert-rules-table',
        rowKey: (r) => String(r.id),
        view,
        onViewChange: changeView,
      }}
      nameOf={(r) => r.name}
      deleteMessage="Its pending and firing alerts are forgotten."
      onDelete={(r) => remove.mutateAsync(r)}
      form={(rule, done) => <RuleForm rule={rule} onDone={done} />}
      dialogSize="lg"
    />
  );
}
