import { LocalDataTable, type Column } from '@app/web-kit';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Paper,
  Progress,
  Radio,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { ApiError, api, type Job, type QueryOf } from '../api.ts';
import {
  errorMessage,
  formatDate,
  formatDuration,
  notifyError,
  notifyOk,
  PageTitle,
  QueryView,
  StatusBadge,
} from '../components/common.tsx';
import { SlotKey } from '../components/SlotKey.tsx';
import { useLanguages, useProject } from '../data/project.ts';
import { rowKeys, useRows, useUntranslatedIds } from '../data/phrases.ts';
import { analyticsKeys } from '../data/analytics.ts';
import { usePrompts } from '../data/prompts.ts';
import { ACTIVE_JOB_STATUSES, aiJobKeys, useActiveAiJobs, useAiJob, useAiJobLog } from '../data/ai-jobs.ts';

export function AiJobs() {
  const [params, setParams] = useSearchParams();
  const jobId = params.get('job');
  const watch = (id: string | null) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (id) copy.set('job', id);
        else copy.delete('job');
        return copy;
      },
      { replace: true },
    );
  return (
    <>
      <PageTitle>AI translation</PageTitle>
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
          <StartJob onStarted={watch} />
          <Stack gap="md">
            {jobId ? <JobProgress id={jobId} onDismiss={() => watch(null)} /> : null}
            <ActiveJobs current={jobId} onWatch={watch} />
          </Stack>
        </SimpleGrid>
        <JobHistory onWatch={watch} />
      </Stack>
    </>
  );
}

function StartJob({ onStarted }: { onStarted: (id: string) => void }) {
  const queryClient = useQueryClient();
  const location = useLocation();
  const chosenFromReview = (location.state as { ids?: number[] } | null)?.ids ?? [];
  const languages = useLanguages();
  const project = useProject();
  const prompts = usePrompts();
  const [lang, setLang] = useState<string | null>(null);
  const [promptId, setPromptId] = useState<string | null>(null);
  const [scope, setScope] = useState<'untranslated' | 'chosen'>(
    chosenFromReview.length ? 'chosen' : 'untranslated',
  );
  const [chosen, setChosen] = useState<Set<number>>(new Set(chosenFromReview));
  const [screenshots, setScreenshots] = useState(false);
  const effectiveLang = lang ?? languages.data?.[0]?.code ?? null;
  const effectivePrompt = promptId ?? prompts.data?.find((p) => p.isDefault)?.id ?? null;

  const untranslated = useUntranslatedIds(effectiveLang);

  const start = useMutation({
    mutationFn: async () => {
      const ids = scope === 'chosen' ? [...chosen] : (untranslated.data?.ids ?? []);
      return api.post('/ai-jobs', {
        body: {
          key_ids: ids,
          // The start button is disabled until there is a language.
          lang: effectiveLang!,
          ...(effectivePrompt ? { prompt_id: effectivePrompt } : {}),
          include_screenshots: screenshots,
        },
      });
    },
    onSuccess: async (result) => {
      notifyOk(`Job started: ${result.total} phrase(s)`);
      onStarted(result.jobId);
      setChosen(new Set());
      await queryClient.invalidateQueries({ queryKey: aiJobKeys.all });
    },
  });

  const count = scope === 'chosen' ? chosen.size : (untranslated.data?.total ?? 0);
  const providerMissing = project.data && !project.data.settings.translationProviderApiKeySet;

  return (
    <Paper withBorder p="md">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          start.mutate();
        }}
      >
        <Stack gap="sm">
          <Title order={3} size="h4">
            New job
          </Title>
          {providerMissing && (
            <Alert color="yellow">
              No AI provider key is set: add one in{' '}
              <Anchor component={Link} to="/settings">
                Settings
              </Anchor>{' '}
              before starting a job.
            </Alert>
          )}
          <QueryView query={languages} label="Loading languages…">
            {(list) =>
              list.length === 0 ? (
                <Alert color="blue">
                  Add a language in{' '}
                  <Anchor component={Link} to="/settings">
                    Settings
                  </Anchor>{' '}
                  first.
                </Alert>
              ) : (
                <Select
                  label="Language"
                  data={list.map((l) => ({ value: l.code, label: `${l.name} (${l.code})` }))}
                  value={effectiveLang}
                  onChange={setLang}
                  allowDeselect={false}
                />
              )
            }
          </QueryView>
          <Select
            label="Prompt"
            data={(prompts.data ?? []).map((p) => ({
              value: p.id,
              label: p.isDefault ? `${p.name} (default)` : p.name,
            }))}
            value={effectivePrompt}
            onChange={setPromptId}
            allowDeselect={false}
            error={prompts.error ? errorMessage(prompts.error) : undefined}
            description={
              <Anchor component={Link} to="/prompts" size="xs">
                Edit prompts
              </Anchor>
            }
          />
          <Radio.Group label="Phrases" value={scope} onChange={(value) => setScope(value as typeof scope)}>
            <Stack gap={6} mt={4}>
              <Radio
                value="untranslated"
                label={`All untranslated approved phrases${untranslated.data ? ` (${untranslated.data.total})` : ''}`}
              />
              <Radio value="chosen" label={`Chosen phrases (${chosen.size})`} />
            </Stack>
          </Radio.Group>
          {scope === 'chosen' && effectiveLang && (
            <PhrasePicker lang={effectiveLang} chosen={chosen} setChosen={setChosen} />
          )}
          <Checkbox
            label="Include screenshots (the model sees where each text appears; turn Screenshots on in Settings)"
            checked={screenshots}
            onChange={(event) => setScreenshots(event.currentTarget.checked)}
          />
          {start.error && (
            <Alert color="red" role="alert">
              {start.error instanceof ApiError && start.error.code === 'provider_not_configured' ? (
                <>
                  No AI provider key is set.{' '}
                  <Anchor component={Link} to="/settings">
                    Set the provider key
                  </Anchor>
                </>
              ) : (
                errorMessage(start.error)
              )}
            </Alert>
          )}
          <Group>
            <Button
              type="submit"
              disabled={!effectiveLang || count === 0 || providerMissing}
              loading={start.isPending}
            >
              Translate {count} phrase{count === 1 ? '' : 's'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function PhrasePicker({
  lang,
  chosen,
  setChosen,
}: {
  lang: string;
  chosen: Set<number>;
  setChosen: (next: Set<number>) => void;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [onlyUntranslated, setOnlyUntranslated] = useState(true);
  const params: QueryOf<'get', '/translations/all'> = {
    lang,
    status: 'approved',
    translated: onlyUntranslated ? 'no' : undefined,
    search: debounced || undefined,
    search_field: debounced ? 'all' : undefined,
    limit: 100,
  };
  const rows = useRows('picker', params);
  const toggle = (id: number) => {
    const copy = new Set(chosen);
    if (copy.has(id)) copy.delete(id);
    else copy.add(id);
    setChosen(copy);
  };
  return (
    <Stack gap={6}>
      <Group gap="xs" align="flex-end">
        <TextInput
          size="xs"
          placeholder="Search approved phrases"
          aria-label="Search approved phrases"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <Checkbox
          size="xs"
          label="Untranslated only"
          checked={onlyUntranslated}
          onChange={(event) => setOnlyUntranslated(event.currentTarget.checked)}
        />
      </Group>
      <ScrollArea.Autosize mah={260} type="auto">
        <QueryView query={rows} label="Loading phrases…">
          {(data) =>
            data.rows.length === 0 ? (
              <Text size="sm" c="dimmed">
                No approved phrases match.
              </Text>
            ) : (
              <Stack gap={4}>
                <Group gap="xs">
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    onClick={() => setChosen(new Set([...chosen, ...data.rows.map((r) => r.id)]))}
                  >
                    Choose all shown
                  </Button>
                  <Button size="compact-xs" variant="subtle" onClick={() => setChosen(new Set())}>
                    Clear
                  </Button>
                </Group>
                {data.rows.map((row) => (
                  <Checkbox
                    key={row.id}
                    checked={chosen.has(row.id)}
                    onChange={() => toggle(row.id)}
                    label={<SlotKey text={row.key} lineClamp={1} />}
                    aria-label={row.key}
                  />
                ))}
              </Stack>
            )
          }
        </QueryView>
      </ScrollArea.Autosize>
    </Stack>
  );
}

function JobProgress({ id, onDismiss }: { id: string; onDismiss: () => void }) {
  const queryClient = useQueryClient();
  const job = useAiJob(id);
  const status = job.data?.status;
  useEffect(() => {
    if (status && !ACTIVE_JOB_STATUSES.has(status)) {
      void queryClient.invalidateQueries({ queryKey: rowKeys.all });
      void queryClient.invalidateQueries({ queryKey: analyticsKeys.all });
      void queryClient.invalidateQueries({ queryKey: aiJobKeys.log });
      void queryClient.invalidateQueries({ queryKey: aiJobKeys.active });
    }
  }, [status, queryClient]);
  const cancel = useMutation({
    mutationFn: () => api.delete('/ai-jobs/{jobId}', { path: { jobId: id } }),
    onSuccess: async () => {
      notifyOk('Job cancelled');
      await queryClient.invalidateQueries({ queryKey: aiJobKeys.all });
    },
    onError: (error) => notifyError(error),
  });
  return (
    <Paper withBorder p="md" data-testid="job-progress">
      <QueryView query={job} label="Loading job…">
        {(j) => {
          const done = j.completed + j.failed;
          const percent = j.total ? Math.round((done / j.total) * 100) : 100;
          return (
            <Stack gap="xs">
              <Group justify="space-between">
                <Title order={3} size="h4">
                  Job {j.lang}
                </Title>
                <span data-testid="job-status">
                  <StatusBadge status={j.status} />
                </span>
              </Group>
              <Progress.Root size="xl" aria-label="Job progress">
                <Progress.Section value={j.total ? (j.completed / j.total) * 100 : 0} color="green">
                  <Progress.Label>{percent}%</Progress.Label>
                </Progress.Section>
                <Progress.Section value={j.total ? (j.failed / j.total) * 100 : 0} color="red" />
              </Progress.Root>
              <Text size="sm" aria-live="polite" data-testid="job-counts">
                {j.completed} of {j.total} translated
                {j.memory.filled ? ` (${j.memory.filled} from memory)` : ''}
                {j.failed ? `, ${j.failed} failed` : ''}
                {ACTIVE_JOB_STATUSES.has(j.status) &&
                  ` · about ${formatDuration(j.estimatedTimeRemaining)} left`}
              </Text>
              {j.error && (
                <Alert color="red" p="xs">
                  {j.error}
                </Alert>
              )}
              <Group gap="xs">
                {ACTIVE_JOB_STATUSES.has(j.status) ? (
                  <Button
                    color="red"
                    variant="light"
                    size="xs"
                    loading={cancel.isPending}
                    onClick={() => cancel.mutate()}
                  >
                    Cancel job
                  </Button>
                ) : (
                  <>
                    <Button size="xs" variant="light" component={Link} to={`/translations?lang=${j.lang}`}>
                      Review translations
                    </Button>
                    <Button size="xs" variant="default" onClick={onDismiss}>
                      Close
                    </Button>
                  </>
                )}
              </Group>
            </Stack>
          );
        }}
      </QueryView>
    </Paper>
  );
}

function ActiveJobs({ current, onWatch }: { current: string | null; onWatch: (id: string) => void }) {
  const active = useActiveAiJobs();
  const others = (active.data?.jobs ?? []).filter((job) => job.id !== current);
  if (active.error) return <Alert color="red">{errorMessage(active.error)}</Alert>;
  if (!others.length) return null;
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h5" mb="xs">
        Other active jobs ({active.data?.stats.running} running, {active.data?.stats.pending} waiting)
      </Title>
      <Stack gap={4}>
        {others.map((job) => (
          <Group key={job.id} justify="space-between">
            <Text size="sm">
              {job.lang}: {job.completed}/{job.total}
            </Text>
            <Button size="compact-xs" variant="subtle" onClick={() => onWatch(job.id)}>
              Watch
            </Button>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}

function JobHistory({ onWatch }: { onWatch: (id: string) => void }) {
  const log = useAiJobLog();
  const columns: Array<Column<Job>> = [
    {
      key: 'finished',
      header: 'Finished',
      phone: 'title',
      sortValue: (job) => job.finishedAt ?? job.createdAt,
      cell: (job) => (
        <Anchor component="button" type="button" size="sm" onClick={() => onWatch(job.id)}>
          {formatDate(job.finishedAt ?? job.createdAt)}
        </Anchor>
      ),
    },
    { key: 'lang', header: 'Language', sortValue: (job) => job.lang, cell: (job) => job.lang },
    {
      key: 'status',
      header: 'Status',
      sortValue: (job) => job.status,
      cell: (job) => <StatusBadge status={job.status} />,
    },
    { key: 'translated', header: 'Translated', align: 'end', cell: (job) => `${job.completed}/${job.total}` },
    {
      key: 'memory',
      header: 'From memory',
      align: 'end',
      sortValue: (job) => job.memory.filled,
      cell: (job) => (
        <Tooltip label={`${job.memory.savedCharacters.toLocaleString()} characters not sent to the provider`}>
          <span>{job.memory.filled}</span>
        </Tooltip>
      ),
    },
    {
      key: 'failed',
      header: 'Failed',
      align: 'end',
      sortValue: (job) => job.failed,
      cell: (job) => job.failed,
    },
    {
      key: 'note',
      header: 'Note',
      cell: (job) => (
        <Text size="xs" c="dimmed" lineClamp={2}>
          {job.error ?? ''}
        </Text>
      ),
    },
  ];
  return (
    <div>
      <Title order={3} size="h4" mb="xs">
        History
      </Title>
      <QueryView query={log} label="Loading history…">
        {(jobs) =>
          jobs.length === 0 ? (
            <Text c="dimmed" size="sm">
              No finished jobs yet.
            </Text>
          ) : (
            <LocalDataTable
              data-testid="job-history"
              sort={{ key: 'finished', direction: 'descending' }}
              rows={jobs}
              rowKey={(job) => job.id}
              columns={columns}
            />
          )
        }
      </QueryView>
    </div>
  );
}
