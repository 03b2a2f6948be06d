import { ConfirmButton } from '@app/web-kit';
import {
  Alert,
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  PasswordInput,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { api, type Project, type Settings } from '../api.ts';
import {
  errorMessage,
  fieldError,
  notifyError,
  notifyOk,
  PageTitle,
  QueryView,
} from '../components/common.tsx';
import { projectKeys, useLanguages, useProject } from '../data/project.ts';
import { FullKeyPanel, PageKeyPanel } from './SettingsKeys.tsx';
import { analyticsKeys } from '../data/analytics.ts';
import { LanguagePicker } from '../components/LanguagePicker.tsx';
import { LeaveGuard } from '../components/LeaveGuard.tsx';
import { NotForYourRole } from '../components/NotForYourRole.tsx';
import { useAuth } from '../auth.tsx';

/** What a leave warning names, from which of the page's two forms has unsaved changes. */
function unsavedText(name: boolean, settings: boolean): string {
  if (name && settings) return 'The new project name and your changes to the settings are not saved.';
  return name ? 'The new project name is not saved.' : 'Your changes to the settings are not saved.';
}

export function SettingsPage() {
  const project = useProject();
  const own = useAuth().can('own');
  // One leave warning for both forms: the router keeps one blocker at a time.
  const [nameDirty, setNameDirty] = useState(false);
  const [settingsDirty, setSettingsDirty] = useState(false);
  return (
    <>
      <PageTitle>Settings</PageTitle>
      <LeaveGuard dirty={nameDirty || settingsDirty} unsaved={unsavedText(nameDirty, settingsDirty)} />
      <QueryView query={project} label="Loading settings…">
        {(p) => (
          <Stack gap="lg" maw={760}>
            <NameForm project={p} onDirty={setNameDirty} />
            <SettingsForm
              key={p.settings ? JSON.stringify(p.settings) : ''}
              settings={p.settings}
              onDirty={setSettingsDirty}
            />
            {p.page_key && <PageKeyPanel pageKey={p.page_key} regenerable={own} />}
            {own ? (
              <>
                <FullKeyPanel />
                <DangerZone />
              </>
            ) : (
              <NotForYourRole>regenerating the keys and resetting the project</NotForYourRole>
            )}
          </Stack>
        )}
      </QueryView>
    </>
  );
}

/** Tells the page whether a form has unsaved changes, as they come and go. */
function useReportDirty(dirty: boolean, onDirty: (dirty: boolean) => void) {
  useEffect(() => onDirty(dirty), [dirty, onDirty]);
}

function NameForm({ project, onDirty }: { project: Project; onDirty: (dirty: boolean) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(project.name);
  useReportDirty(name !== project.name, onDirty);
  const save = useMutation({
    mutationFn: () => api.patch('/project', { body: { name } }),
    onSuccess: (updated) => {
      queryClient.setQueryData(projectKeys.project, updated);
      notifyOk('Project renamed');
    },
  });
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Group align="flex-end" gap="xs">
        <TextInput
          label="Project name"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={save.error ? (fieldError(save.error, 'name') ?? errorMessage(save.error)) : undefined}
          style={{ flex: 1 }}
        />
        <Button type="submit" disabled={name === project.name || !name.trim()} loading={save.isPending}>
          Rename
        </Button>
      </Group>
    </Paper>
  );
}

function SettingsForm({ settings, onDirty }: { settings: Settings; onDirty: (dirty: boolean) => void }) {
  const queryClient = useQueryClient();
  const languages = useLanguages();
  const [draft, setDraft] = useState(settings);
  const [providerKey, setProviderKey] = useState('');
  const set = <K extends keyof Settings>(name: K, value: Settings[K]) =>
    setDraft((d) => ({ ...d, [name]: value }));
  const save = useMutation({
    mutationFn: (clearKey: boolean = false) => {
      const { translationProviderApiKey: _key, translationProviderApiKeySet: _set, ...rest } = draft;
      return api.patch('/project/settings', {
        body: {
          settings: {
            ...rest,
            // Write-only: blank keeps the stored key, null clears it.
            ...(clearKey
              ? { translationProviderApiKey: null }
              : providerKey
                ? { translationProviderApiKey: providerKey }
                : {}),
          },
        },
      });
    },
    onSuccess: async (updated) => {
      queryClient.setQueryData(projectKeys.project, updated);
      setProviderKey('');
      notifyOk('Settings saved');
      await queryClient.invalidateQueries({ queryKey: projectKeys.languages });
      await queryClient.invalidateQueries({ queryKey: analyticsKeys.all });
    },
  });
  const dirty = providerKey !== '' || JSON.stringify(draft) !== JSON.stringify(settings);
  useReportDirty(dirty, onDirty);
  const err = (name: string) => fieldError(save.error, name, `settings.${name}`);
  const names = new Map((languages.data ?? []).map((l) => [l.code, l.name]));
  const otherError =
    save.error &&
    ![
      'languages',
      'allowedOrigins',
      'seoOrigin',
      'seoPublicUrl',
      'blockedTags',
      'inlineTags',
      'contextDepth',
      'domContextSelectors',
      'translationProviderApiKey',
    ].some((n) => err(n));

  return (
    <Paper
      withBorder
      p="md"
      component="form"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        save.mutate(false);
      }}
    >
      <Stack gap="md">
        <Title order={3} size="h4">
          Languages
        </Title>
        <LanguagePicker
          value={draft.languages}
          onChange={(value) => set('languages', value)}
          error={err('languages')}
        />
        {settings.languages.length > 0 && (
          <Group gap={6} data-testid="language-names">
            {settings.languages.map((code) => (
              <Badge key={code} variant="light" tt="none">
                {names.get(code) ?? code} ({code})
              </Badge>
            ))}
          </Group>
        )}

        <Title order={3} size="h4" mt="sm">
          Pages
        </Title>
        <TagsInput
          label="Allowed origins"
          description="Sites whose pages may use the page key: https://shop.example, https://*.shop.example (any subdomain), http://localhost:8080 (a port of * allows any). Press Enter after each."
          value={draft.allowedOrigins}
          onChange={(value) => set('allowedOrigins', value)}
          error={err('allowedOrigins')}
          splitChars={[',', ' ']}
        />
        <Group grow align="flex-start">
          <TextInput
            label="SEO mode: the site's origin"
            description="Where the translator fetches your pages to serve them translated at /fr/… for search engines (see docs/operations.md for the nginx part). Empty: off."
            placeholder="https://www.shop.example"
            value={draft.seoOrigin}
            onChange={(e) => set('seoOrigin', e.currentTarget.value)}
            error={err('seoOrigin')}
          />
          <TextInput
            label="The site's public address"
            description="What visitors type, for canonical and language links and sitemaps. Empty: the origin."
            placeholder="https://shop.example"
            value={draft.seoPublicUrl}
            onChange={(e) => set('seoPublicUrl', e.currentTarget.value)}
            error={err('seoPublicUrl')}
            disabled={!draft.seoOrigin}
          />
        </Group>
        <Switch
          label="SEO mode: run the pages' scripts first"
          description="For sites whose text their scripts render (React, Vue, web components): each page is loaded in a browser on the translator before it is translated. Needs Chromium on the server."
          checked={draft.seoPrerender}
          onChange={(e) => set('seoPrerender', e.currentTarget.checked)}
          disabled={!draft.seoOrigin}
        />

        <Title order={3} size="h4" mt="sm">
          Page scanning
        </Title>
        <TagsInput
          label="Blocked tags"
          description="Elements whose text is never collected (besides script, style, code, pre…)."
          value={draft.blockedTags}
          onChange={(value) => set('blockedTags', value)}
          error={err('blockedTags')}
          splitChars={[',', ' ']}
        />
        <TagsInput
          label="Inline tags"
          description="Elements inside a sentence that become {{text:N}} slots instead of splitting it."
          value={draft.inlineTags}
          onChange={(value) => set('inlineTags', value)}
          error={err('inlineTags')}
          splitChars={[',', ' ']}
        />
        <Switch
          label="Collect DOM context"
          description="Phrases get a context from the surrounding elements, so the same text can translate differently."
          checked={draft.domContextEnabled}
          onChange={(e) => set('domContextEnabled', e.currentTarget.checked)}
        />
        <Group grow align="flex-start">
          <NumberInput
            label="Context depth"
            min={0}
            max={10}
            value={draft.contextDepth}
            onChange={(value) => set('contextDepth', typeof value === 'number' ? value : 0)}
            error={err('contextDepth')}
            disabled={!draft.domContextEnabled}
          />
          <TagsInput
            label="Context selectors"
            description="CSS selectors whose nearest match names the context."
            value={draft.domContextSelectors}
            onChange={(value) => set('domContextSelectors', value)}
            error={err('domContextSelectors')}
            disabled={!draft.domContextEnabled}
          />
        </Group>
        <Switch
          label="Screenshots"
          description="Photograph where each phrase appears on its page: shown beside it in Review and the grid, and sent to AI jobs that include screenshots."
          checked={draft.screenshotsEnabled}
          onChange={(e) => set('screenshotsEnabled', e.currentTarget.checked)}
        />
        <Switch
          label="Deliver only reviewed translations"
          description="Pages get a translation only once someone has marked it reviewed; others show the original text."
          checked={draft.deliverReviewedOnly}
          onChange={(e) => set('deliverReviewedOnly', e.currentTarget.checked)}
        />
        <Switch
          label="Deliver outdated translations"
          description="When a page shows a changed text, the old text's translations move to it, marked outdated until someone saves or reviews them. On: pages show them meanwhile. Off: the new text shows untranslated."
          checked={draft.deliverOutdated}
          onChange={(e) => set('deliverOutdated', e.currentTarget.checked)}
        />
        <Switch
          label="Share translation memory"
          description="Pool this project's translation memory with every other project that shares its memory: each sees the others' translations as suggestions and in AI jobs."
          checked={draft.sharedMemory}
          onChange={(e) => set('sharedMemory', e.currentTarget.checked)}
        />

        <Title order={3} size="h4" mt="sm">
          AI provider
        </Title>
        <Select
          label="Translation engine"
          description="What AI jobs translate with. DeepL takes no prompt; the glossary still checks its translations."
          data={[
            { value: 'openai', label: 'OpenAI-compatible model' },
            { value: 'deepl', label: 'DeepL' },
          ]}
          value={draft.translationEngine}
          onChange={(value) => set('translationEngine', value === 'deepl' ? 'deepl' : 'openai')}
          allowDeselect={false}
          maw={320}
        />
        <PasswordInput
          label="Provider API key"
          description={
            settings.translationProviderApiKeySet
              ? 'A key is stored. It is never shown; leave blank to keep it, or type a new one to replace it.'
              : 'No key stored. It is write-only: once saved it is never shown again.'
          }
          placeholder={
            settings.translationProviderApiKeySet
              ? '•••••••• (stored)'
              : draft.translationEngine === 'deepl'
                ? 'DeepL key (free keys end in :fx)'
                : 'sk-…'
          }
          autoComplete="new-password"
          value={providerKey}
          onChange={(e) => setProviderKey(e.currentTarget.value)}
          error={err('translationProviderApiKey')}
        />
        {otherError && (
          <Alert color="red" role="alert">
            {errorMessage(save.error)}
          </Alert>
        )}
        {/* With unsaved changes the buttons stay in sight at the bottom of the screen, a page's
            length below the first fields. */}
        <Group gap="xs" style={dirty ? STICKY : undefined}>
          <Button type="submit" loading={save.isPending}>
            Save settings
          </Button>
          {dirty && (
            <Button
              variant="default"
              onClick={() => {
                setDraft(settings);
                setProviderKey('');
              }}
            >
              Discard changes
            </Button>
          )}
          {settings.translationProviderApiKeySet && (
            <Button variant="subtle" color="red" onClick={() => save.mutate(true)}>
              Remove provider key
            </Button>
          )}
          {dirty && (
            <Text size="sm" c="dimmed">
              Unsaved changes
            </Text>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

const STICKY = {
  position: 'sticky',
  bottom: 0,
  zIndex: 2,
  padding: 'var(--mantine-spacing-xs) 0',
  background: 'var(--mantine-color-body)',
  borderTop: '1px solid var(--mantine-color-default-border)',
} as const;

function DangerZone() {
  const queryClient = useQueryClient();
  return (
    <Paper withBorder p="md" style={{ borderColor: 'var(--mantine-color-red-4)' }}>
      <Stack gap="xs">
        <Title order={3} size="h4" c="red">
          Danger zone
        </Title>
        <Text size="sm" c="dimmed">
          Delete every phrase and translation of this project. Settings, prompts and the keys stay. Make a
          backup first.
        </Text>
        <Group>
          <ConfirmButton
            title="Delete all phrases and translations?"
            message="Every phrase and translation of this project is deleted. This cannot be undone."
            confirmLabel="Delete everything"
            onConfirm={async () => {
              try {
                const result = await api.post('/project/reset-database');
                notifyOk(`${result.deletedPhrases} phrase(s) deleted`);
                await queryClient.invalidateQueries();
              } catch (error) {
                notifyError(error);
              }
            }}
          >
            Reset project data
          </ConfirmButton>
        </Group>
      </Stack>
    </Paper>
  );
}
