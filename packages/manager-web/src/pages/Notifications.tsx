import { Anchor, Button, Card, Code, Group, Spoiler, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useAcknowledge, useAcknowledgeAll, useNotifications } from '../api/notifications.ts';
import { showError, showSuccess } from '../api/errors.ts';
import { useScopeTargets, type ScopeTargets } from '../api/alert-targets.ts';
import { EmptyState, formatDate, PageHeader, QueryState, StatusBadge } from '../components/common.tsx';

interface Notice {
  source: string;
  action: string | null;
  evidence: Record<string, unknown> | null;
}

/** The container or node an alert is about, as its evidence names it. */
function alertSubject(notice: Notice): { type: 'container' | 'node'; id: number } | undefined {
  if (notice.source !== 'manager' || !notice.action?.startsWith('alert.')) return undefined;
  const { subjectType: type, subjectId: id } = notice.evidence ?? {};
  return (type === 'container' || type === 'node') && typeof id === 'number' ? { type, id } : undefined;
}

/**
 * Where a notice the manager raised leads: the container it concerns, the users to approve, or the
 * container or node an alert is about (found among `targets`, as an alert's evidence has no site).
 */
function noticeLink(notice: Notice, targets: ScopeTargets): { to: string; label: string } | undefined {
  if (notice.source !== 'manager') return undefined;
  if (notice.action === 'user.pending') return { to: '/users', label: 'Open Users' };
  const subject = alertSubject(notice);
  if (subject) {
    const target = targets[subject.type].find((t) => t.id === subject.id);
    const page = subject.type === 'container' ? 'containers' : 'nodes';
    return target && { to: `/sites/${target.siteId}/${page}/${target.id}`, label: `Open ${target.name}` };
  }
  const { siteId, containerId } = notice.evidence ?? {};
  if (typeof siteId === 'number' && typeof containerId === 'number') {
    return { to: `/sites/${siteId}/containers/${containerId}`, label: 'Open container' };
  }
  return undefined;
}

function NoticeLink({ notice, targets }: { notice: Notice; targets: ScopeTargets }) {
  const link = noticeLink(notice, targets);
  return link ? (
    <Anchor component={Link} to={link.to} size="sm">
      {link.label}
    </Anchor>
  ) : null;
}

export function NotificationsPage() {
  const list = useNotifications();
  const ack = useAcknowledge({ onError: (error) => showError(error) });
  const ackAll = useAcknowledgeAll({
    onSuccess: (result) => showSuccess(`${result.acknowledged} acknowledged`),
    onError: (error) => showError(error),
  });
  const unread = list.data?.filter((n) => !n.acknowledgedAt).length ?? 0;
  const targets = useScopeTargets((list.data ?? []).flatMap((n) => alertSubject(n)?.type ?? []));
  return (
    <>
      <PageHeader title="Notifications">
        <Button variant="light" disabled={!unread} loading={ackAll.isPending} onClick={() => ackAll.mutate()}>
          Acknowledge all
        </Button>
      </PageHeader>
      <QueryState
        query={list}
        empty={
          <EmptyState title="No notifications">
            Events about your containers, containers shared with you and, for administrators, accounts waiting
            for approval appear here.
          </EmptyState>
        }
      >
        {(items) => (
          <Stack gap="sm" data-testid="notifications">
            {items.map((n) => (
              <Card
                key={n.id}
                withBorder
                padding="sm"
                opacity={n.acknowledgedAt ? 0.65 : 1}
                data-action={n.action ?? undefined}
              >
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Group gap="xs">
                    <StatusBadge status={n.severity} />
                    <Text fw={600} size="sm">
                      {n.source}
                      {n.action ? ` · ${n.action}` : ''}
                    </Text>
                    {n.node ? (
                      <Text size="xs" c="dimmed">
                        {n.node}
                        {n.ctid ? ` / ${n.ctid}` : ''}
                      </Text>
                    ) : null}
                  </Group>
                  <Group gap="xs">
                    <Text size="xs" c="dimmed">
                      {formatDate(n.eventAt ?? n.createdAt)}
                    </Text>
                    {n.acknowledgedAt ? (
                      <Text size="xs" c="dimmed">
                        acknowledged
                      </Text>
                    ) : (
                      <Button size="xs" variant="light" onClick={() => ack.mutate(n.id)}>
                        Acknowledge
                      </Button>
                    )}
                  </Group>
                </Group>
                <Group gap="sm" mt={4} wrap="wrap">
                  <Text size="sm">{n.message}</Text>
                  <NoticeLink notice={n} targets={targets} />
                </Group>
                {n.evidence ? (
                  <Spoiler maxHeight={0} showLabel="Evidence" hideLabel="Hide evidence" mt={4}>
                    <Code block>{JSON.stringify(n.evidence, null, 2)}</Code>
                  </Spoiler>
                ) : null}
              </Card>
            ))}
          </Stack>
        )}
      </QueryState>
    </>
  );
}
