import { Anchor, Breadcrumbs, Button, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api.ts';
import { notifyError, notifyOk, PageTitle, QueryView } from '../components/common.tsx';
import { rowKeys } from '../data/phrases.ts';
import { analyticsKeys, useUrlDetail } from '../data/analytics.ts';
import { EditOnPage } from '../components/EditOnPage.tsx';
import { useAuth } from '../auth.tsx';

export function UrlDetailPage() {
  const [params] = useSearchParams();
  const url = params.get('url') ?? '';
  const queryClient = useQueryClient();
  const detail = useUrlDetail(url);
  const manage = useAuth().can('manage');
  const approveAll = useMutation({
    mutationFn: (ids: number[]) => api.patch('/textnodes/status', { body: { ids, status: 'approved' } }),
    onSuccess: async (result) => {
      notifyOk(`${result.updated} phrase(s) approved`);
      await queryClient.invalidateQueries({ queryKey: analyticsKeys.all });
      await queryClient.invalidateQueries({ queryKey: rowKeys.all });
    },
    onError: (error) => notifyError(error),
  });
  return (
    <>
      <Breadcrumbs mb="xs">
        <Anchor component={Link} to="/analytics" size="sm">
          Analytics
        </Anchor>
        <Text size="sm">Page</Text>
      </Breadcrumbs>
      <PageTitle>Page detail</PageTitle>
      {/* A link only to a page on the allowed origins: any other stored address (javascript:, another
          site) is shown as text. */}
      <Text style={{ wordBreak: 'break-all' }} mb="md" data-testid="detail-url">
        {detail.data?.onAllowedOrigin ? (
          <Anchor href={url} target="_blank" rel="noreferrer noopener">
            {url}
          </Anchor>
        ) : (
          url
        )}
      </Text>
      <QueryView query={detail} label="Loading page…">
        {(d) => (
          <>
            <SimpleGrid cols={{ base: 3 }} spacing="sm" mb="md">
              {[
                ['Phrases', d.totalPhrases],
                ['Approved', d.approved],
                ['Pending', d.pending],
              ].map(([label, value]) => (
                <Paper key={label} withBorder p="sm">
                  <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                    {label}
                  </Text>
                  <Text size="xl" fw={700}>
                    {value}
                  </Text>
                </Paper>
              ))}
            </SimpleGrid>
            <Group gap="xs" align="flex-start">
              <Button
                component={Link}
                to={`/review?status=all&url=${encodeURIComponent(url)}`}
                variant="light"
              >
                Review this page’s phrases
              </Button>
              {manage && (
                <Button
                  color="green"
                  disabled={d.pendingKeyIds.length === 0}
                  loading={approveAll.isPending}
                  onClick={() => approveAll.mutate(d.pendingKeyIds)}
                >
                  Approve {d.pendingKeyIds.length} pending
                </Button>
              )}
              <EditOnPage url={url} onAllowedOrigin={d.onAllowedOrigin} />
            </Group>
          </>
        )}
      </QueryView>
    </>
  );
}
