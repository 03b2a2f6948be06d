import {
  Alert,
  Button,
  Fieldset,
  Group,
  NumberInput,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useSaveSettings, useSettings } from '../../api/settings.ts';
import { showSuccess } from '../../api/errors.ts';
import { FormErrorSummary, useFormGuide } from '../../components/FormGuide.tsx';
import type { Settings } from '../../api/types.ts';
import { BannerText } from '../../components/Banner.tsx';
import { KeyValueEditor } from '../../components/KeyValueEditor.tsx';
import { PageHeader, QueryState } from '../../components/common.tsx';
import { SsoAdmissionFields } from './SsoAdmissionFields.tsx';

/** Errors the server gave per entry (`registryAllowlist.2`) as one message naming the lines. */
function lineErrors(errors: Record<string, unknown>, field: string): string | undefined {
  const lines = Object.entries(errors)
    .filter(([path]) => path.startsWith(`${field}.`))
    .map(([path, message]) => `line ${Number(path.slice(field.length + 1)) + 1}: ${String(message)}`);
  return lines.length ? lines.join('; ') : undefined;
}

function SettingsForm({ settings }: { settings: Settings }) {
  const form = useForm<Settings>({ mode: 'controlled', initialValues: settings });
  const guide = useFormGuide(form);
  const save = useSaveSettings({
    onSuccess: (saved) => {
      showSuccess('Settings saved');
      form.setInitialValues(saved);
      form.setValues(saved);
    },
    onError: (error) => guide.showError(error),
  });
  const banner = form.values.bannerMessage;
  return (
    <form
      ref={guide.ref}
      onSubmit={form.onSubmit(
        (values) =>
          save.mutate({
            ...values,
            defaultContainerEnvVars: values.defaultContainerEnvVars.filter((row) => row.key.trim()),
          }),
        guide.failed,
      )}
      noValidate
    >
      <Stack maw={860}>
        <Fieldset legend="Announcement banner">
          <Textarea
            label="Banner message"
            description="Shown at the top of every page. [text](https://…) makes a link; blank hides the banner."
            autosize
            minRows={2}
            {...form.getInputProps('bannerMessage')}
          />
          {banner.trim() ? (
            <Alert color="yellow" variant="light" mt="sm" title="Preview">
              <BannerText text={banner} />
            </Alert>
          ) : null}
        </Fieldset>
        <Fieldset legend="E-mail (SMTP)">
          <Stack>
            <TextInput
              label="SMTP URL"
              description="The password is shown masked; pointing the URL at another host or port drops it unless you type it again"
              placeholder="smtp://user:password@mail.example.com:587"
              {...form.getInputProps('smtpUrl')}
            />
            <TextInput
              label="No-reply address"
              placeholder="noreply@example.com"
              {...form.getInputProps('smtpNoreplyAddress')}
            />
          </Stack>
        </Fieldset>
        <Fieldset legend="Default container environment variables">
          <Text size="sm" c="dimmed" mb="xs">
            Every new container starts with these; its owner can override them.
          </Text>
          <KeyValueEditor
            rows={form.values.defaultContainerEnvVars}
            onChange={(rows) =>
              form.setFieldValue(
                'defaultContainerEnvVars',
                rows.map((r) => ({ ...r, description: r.description ?? '' })),
              )
            }
            withDescription
            prefix="defaultContainerEnvVars"
            errors={form.errors}
          />
        </Fieldset>
        <Fieldset legend="Image registries">
          <Textarea
            label="Registry allowlist"
            description="One host or host:port per line (registry.lan, 10.0.0.5:5000). Image lookups reach registries on loopback or private networks, and plain HTTP, only when listed here."
            placeholder="127.0.0.1:5000"
            autosize
            minRows={2}
            value={form.values.registryAllowlist.join('\n')}
            onChange={(event) =>
              form.setFieldValue('registryAllowlist', event.currentTarget.value.split('\n'))
            }
            error={lineErrors(form.errors, 'registryAllowlist')}
          />
        </Fieldset>
        <SsoAdmissionFields form={form} />
        <Fieldset legend="Audit log">
          <NumberInput
            label="Keep entries for (days)"
            description="Older entries are deleted by the hourly maintenance."
            min={1}
            max={36500}
            allowDecimal={false}
            {...form.getInputProps('auditRetentionDays')}
          />
        </Fieldset>
        <Fieldset legend="Inventory">
          <Stack>
            <TextInput
              label="Inventory URL"
              placeholder="https://netbox.example.com"
              {...form.getInputProps('inventoryUrl')}
            />
            <PasswordInput
              label="Inventory token"
              description="Shown masked; leave it unchanged to keep the stored token"
              autoComplete="off"
              {...form.getInputProps('inventoryToken')}
            />
          </Stack>
        </Fieldset>
        <Group>
          <FormErrorSummary problems={guide.summary} />
          <Button type="submit" loading={save.isPending}>
            Save settings
          </Button>
          <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>
            Discard changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function SettingsPage() {
  const settings = useSettings();
  return (
    <>
      <PageHeader title="Settings" />
      <QueryState query={settings} isEmpty={() => false}>
        {(data) => <SettingsForm settings={data} />}
      </QueryState>
    </>
  );
}
