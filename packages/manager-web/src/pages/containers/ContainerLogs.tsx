import {
  Badge,
  Button,
  Card,
  Group,
  Highlight,
  ScrollArea,
  SegmentedControl,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import {
  logsDownloadUrl,
  useContainerLogs,
  useFollowedLogs,
  type LogFilter,
  type LogLine,
  type LogStreamChoice,
} from '../../api/container-logs.ts';
import type { Container } from '../../api/types.ts';

const STREAMS: { value: LogStreamChoice; label: string }[] = [
  { value: 'both', label: 'Both' },
  { value: 'stdout', label: 'stdout' },
  { value: 'stderr', label: 'stderr' },
];

/** `datetime-local` input value (local time) → ISO 8601, or undefined when empty. */
const isoOf = (local: string) => (local ? new Date(local).toISOString() : undefined);

function LogLines({ lines, search }: { lines: LogLine[]; search: string }) {
  const viewport = useRef<HTMLDivElement>(null);
  const needle = search.trim().toLowerCase();
  const shown = needle ? lines.filter((line) => line.text.toLowerCase().includes(needle)) : lines;
  useEffect(() => {
    const element = viewport.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [shown.length]);
  return (
    <ScrollArea.Autosize
      mah={420}
      viewportRef={viewport}
      type="auto"
      // Scrollable by keyboard too.
      viewportProps={{ tabIndex: 0 }}
    >
      <div
        role="log"
        aria-label="Container log"
        data-testid="log-lines"
        style={{ fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12, lineHeight: 1.45 }}
      >
        {shown.length === 0 ? (
          <Text size="sm" c="dimmed">
            {lines.length ? 'No line matches the search.' : 'No output in this window.'}
          </Text>
        ) : (
          shown.map((line, index) => (
            <div
              key={index}
              data-stream={line.stream}
              style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
            >
              <Text span size="xs" c="dimmed">
                {new Date(line.time).toLocaleTimeString()}{' '}
              </Text>
              {line.stream === 'stderr' ? (
                <Badge size="xs" color="red" variant="light" mr={4}>
                  stderr
                </Badge>
              ) : null}
              <Highlight span inherit highlight={needle ? search.trim() : []}>
                {line.text}
              </Highlight>
            </div>
          ))
        )}
      </div>
    </ScrollArea.Autosize>
  );
}

/** The container's output: its last lines or followed live, one stream or both, a window, a search. */
export function ContainerLogs({ siteId, container }: { siteId: number; container: Container }) {
  const [follow, setFollow] = useState(false);
  const [stream, setStream] = useState<LogStreamChoice>('both');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [search, setSearch] = useState('');
  const filter: LogFilter = { stream, since: isoOf(since), until: follow ? undefined : isoOf(until) };
  const bounds = [
    { label: 'Since', value: since, set: setSince, disabled: false },
    // A followed log has no end.
    { label: 'Until', value: until, set: setUntil, disabled: follow },
  ];
  const hasInstance = container.containerId !== null;
  const read = useContainerLogs(siteId, container.id, filter, hasInstance && !follow);
  const followed = useFollowedLogs(siteId, container.id, filter, hasInstance && follow);
  const lines = follow ? followed.lines : (read.data?.lines ?? []);
  const problem = follow ? followed.problem : read.error?.message;

  return (
    <Card withBorder data-testid="container-logs">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5">
          Logs
        </Title>
        <Group gap="xs">
          {follow ? (
            <Badge
              variant="dot"
              color={followed.state === 'live' ? 'green' : followed.state === 'ended' ? 'gray' : 'yellow'}
              data-testid="follow-state"
            >
              {followed.state}
            </Badge>
          ) : null}
          <Button
            component="a"
            size="xs"
            variant="default"
            href={logsDownloadUrl(siteId, container.id, filter)}
            download
          >
            Download
          </Button>
        </Group>
      </Group>
      {!hasInstance ? (
        <Text size="sm" c="dimmed">
          The container has no instance on its node yet.
        </Text>
      ) : (
        <>
          <Group align="flex-end" gap="sm" mb="sm" wrap="wrap">
            <Switch
              label="Follow"
              checked={follow}
              onChange={(event) => setFollow(event.currentTarget.checked)}
            />
            <SegmentedControl
              aria-label="Stream"
              size="xs"
              data={STREAMS}
              value={stream}
              onChange={(value) => setStream(value as LogStreamChoice)}
            />
            {bounds.map(({ label, value, set, disabled }) => (
              <TextInput
                key={label}
                size="xs"
                type="datetime-local"
                label={label}
                disabled={disabled}
                value={value}
                onChange={(event) => set(event.currentTarget.value)}
              />
            ))}
            <TextInput
              size="xs"
              type="search"
              label="Search"
              placeholder="text in a line"
              value={search}
              onChange={(event) => setSearch(event.currentTarget.value)}
            />
          </Group>
          {problem ? (
            <Text c="red" size="sm" mb="xs" role="alert">
              {problem}
            </Text>
          ) : null}
          {!follow && read.data?.truncated ? (
            <Text size="xs" c="dimmed" mb="xs">
              Only the last lines are shown: narrow the window, or download.
            </Text>
          ) : null}
          <LogLines lines={lines} search={search} />
        </>
      )}
    </Card>
  );
}
