import { Alert, Anchor, Badge, Button, Card, Group, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';
import { useContainer, useInvalidateContainers } from '../../api/containers.ts';
import { PageHeader } from '../../components/common.tsx';
import { connectTerminal, terminalUrl } from './terminal/terminal-socket.ts';
import { JobLog } from './JobLog.tsx';
import { TerminalStopped } from './TerminalAccess.tsx';

type Phase = { state: 'connecting' } | { state: 'open' } | { state: 'closed'; reason: string };

/** Ctrl+Shift+C copies the selection (Ctrl+C goes to the shell); Ctrl+Shift+V is the browser's paste. */
function clipboardKeys(terminal: Terminal) {
  terminal.attachCustomKeyEventHandler((event) => {
    if (event.type !== 'keydown' || !event.ctrlKey || !event.shiftKey) return true;
    if (event.code === 'KeyC') {
      void navigator.clipboard?.writeText(terminal.getSelection());
      return false;
    }
    return event.code !== 'KeyV';
  });
}

/** An interactive shell in the container (owner and administrators), fitted to the panel. */
export function TerminalPage() {
  const params = useParams();
  const siteId = Number(params.siteId);
  const id = Number(params.id);
  const container = useContainer(siteId, id);
  const panel = useRef<HTMLDivElement>(null);
  const terminalRef = useRef<Terminal | null>(null);
  const [phase, setPhase] = useState<Phase>({ state: 'connecting' });
  const [attempt, setAttempt] = useState(0);
  const [startJob, setStartJob] = useState<number | null>(null);
  const refresh = useInvalidateContainers(siteId);
  // A stopped container has no shell: its node's refusal would be the only word, so none is asked for.
  const stopped = container.data?.status === 'offline';

  useEffect(() => {
    const element = panel.current;
    if (!element || stopped) return;
    const terminal = new Terminal({ cursorBlink: true, fontSize: 14, scrollback: 5000 });
    const fit = new FitAddon();
    terminal.loadAddon(fit);
    terminal.open(element);
    fit.fit();
    clipboardKeys(terminal);
    terminalRef.current = terminal;
    setPhase({ state: 'connecting' });
    const connection = connectTerminal(terminalUrl(siteId, id, terminal), {
      output: (bytes) => terminal.write(bytes),
      opened: () => {
        setPhase({ state: 'open' });
        terminal.focus();
      },
      closed: (reason) => setPhase({ state: 'closed', reason }),
    });
    terminal.onData((text) => connection.type(text));
    terminal.onResize(({ cols, rows }) => connection.resize(cols, rows));
    const observer = new ResizeObserver(() => fit.fit());
    observer.observe(element);
    return () => {
      observer.disconnect();
      connection.close();
      terminal.dispose();
      terminalRef.current = null;
    };
  }, [siteId, id, attempt, stopped]);

  const hostname = container.data?.hostname ?? `container ${id}`;
  const copy = () => void navigator.clipboard?.writeText(terminalRef.current?.getSelection() ?? '');
  const paste = async () => terminalRef.current?.paste(await navigator.clipboard.readText());

  return (
    <Stack>
      <Anchor component={Link} to={`/sites/${siteId}/containers/${id}`} size="sm">
        ← {hostname}
      </Anchor>
      <PageHeader
        title={
          <Group gap="sm">
            <span>Terminal: {hostname}</span>
            <Badge
              variant="light"
              color={phase.state === 'open' ? 'green' : 'gray'}
              data-testid="terminal-state"
            >
              {stopped ? 'stopped' : phase.state}
            </Badge>
          </Group>
        }
      >
        <Button variant="default" size="sm" onClick={copy}>
          Copy
        </Button>
        <Button variant="default" size="sm" onClick={() => void paste()}>
          Paste
        </Button>
        <Button
          size="sm"
          onClick={() => setAttempt((n) => n + 1)}
          disabled={stopped || phase.state === 'connecting'}
        >
          Reconnect
        </Button>
      </PageHeader>
      {stopped && container.data ? (
        <Alert color="yellow">
          <TerminalStopped siteId={siteId} container={container.data} onQueued={setStartJob} />
        </Alert>
      ) : null}
      {startJob ? <JobLog jobId={startJob} onFinished={refresh} /> : null}
      {phase.state === 'closed' && !stopped ? (
        <Alert color="yellow" data-testid="terminal-closed">
          {phase.reason} Reconnect to open a new shell.
        </Alert>
      ) : null}
      {stopped ? null : (
        <Card withBorder p={4} bg="#000">
          <div
            ref={panel}
            data-testid="terminal-panel"
            style={{ height: 'calc(100vh - 16rem)', minHeight: '18rem' }}
          />
        </Card>
      )}
    </Stack>
  );
}
