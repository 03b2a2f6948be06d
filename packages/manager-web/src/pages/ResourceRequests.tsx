import { DataTable, Modal, type Column } from '@app/web-kit';
import {
  Button,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormErrorSummary, useFormGuide } from '../components/FormGuide.tsx';
import { useEffect, useState } from 'react';
import { showSuccess } from '../api/errors.ts';
import { useSites } from '../api/fleet.ts';
import { useFileRequest, useResourceRequests, useReviewRequest } from '../api/resource-requests.ts';
import { useSession } from '../api/session.ts';
import type { ResourceRequest, ResourceType } from '../api/types.ts';
import { EmptyState, formatDate, PageHeader, QueryState, StatusBadge } from '../components/common.tsx';

const UNITS: Record<ResourceType, string> = { memory: 'MB', swap: 'MB', rootfs: 'GB', cpus: 'CPUs' };
const DEFAULTS: Record<ResourceType, number> = { cpus: 4, memory: 4096, swap: 0, rootfs: 50 };

function RequestForm({ onDone }: { onDone: () => void }) {
  const sites = useSites();
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      siteId: sites.data?.[0] ? String(sites.data[0].id) : (null as string | null),
      hostname: '',
      resourceType: 'memory' as ResourceType,
      value: 8192 as number | string,
      comment: '',
    },
    validate: {
      siteId: (v) => (v ? null : 'Choose a site'),
      hostname: (v) => (v.trim() ? null : 'The container’s hostname'),
      value: (v) => (Number(v) > 0 ? null : 'A positive number'),
    },
  });
  const guide = useFormGuide(form);
  // The sites may still be loading when the form opens (a fresh page load): start on the first one
  // once they are there, unless a site was chosen meanwhile.
  const firstSite = sites.data?.[0]?.id;
  useEffect(() => {
    if (firstSite !== undefined && !form.getValues().siteId) form.setFieldValue('siteId', String(firstSite));
  }, [firstSite]);
  const file = useFileRequest({
    onSuccess: (request) => {
      showSuccess(
        request.status === 'approved' ? 'Approved at once (within the defaults)' : 'Request filed for review',
      );
      onDone();
    },
    onError: (error) => guide.showError(error),
  });
  const type = form.values.resourceType;
  return (
    <form
      ref={guide.ref}
      onSubmit={form.onSubmit(
        (values) => file.mutate({ ...values, siteId: Number(values.siteId), value: Number(values.value) }),
        guide.failed,
      )}
      noValidate
    >
      <Stack>
        <Select
          label="Site"
          required
          allowDeselect={false}
          data={(sites.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
          {...form.getInputProps('siteId')}
        />
        <TextInput label="Container hostname" required data-autofocus {...form.getInputProps('hostname')} />
        <Select
          label="Resource"
          allowDeselect={false}
          data={[
            { value: 'memory', label: 'Memory (MB)' },
            { value: 'swap', label: 'Swap (MB)' },
            { value: 'cpus', label: 'CPUs' },
            { value: 'rootfs', label: 'Root filesystem (GB)' },
          ]}
          {...form.getInputProps('resourceType')}
        />
        <NumberInput
          label={`Amount (${UNITS[type]})`}
          description={`Default: ${DEFAULTS[type]} ${UNITS[type]}; up to the default is approved at once`}
          min={1}
          required
          {...form.getInputProps('value')}
        />
        <Textarea label="Why do you need it?" autosize minRows={2} {...form.getInputProps('comment')} />
        <Group justify="flex-end">
          <FormErrorSummary problems={guide.summary} />
          <Button type="submit" loading={file.isPending}>
            File request
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ReviewForm({
  request,
  action,
  onDone,
}: {
  request: ResourceRequest;
  action: 'approve' | 'deny';
  onDone: () => void;
}) {
  const form = useForm({ mode: 'controlled', initialValues: { adminComment: '' } });
  const guide = useFormGuide(form);
  const review = useReviewRequest(request, action, {
    onSuccess: () => {
      showSuccess(action === 'approve' ? 'Approved' : 'Denied');
      onDone();
    },
    onError: (error) => guide.showError(error),
  });
  return (
    <form ref={guide.ref} onSubmit={form.onSubmit((values) => review.mutate(values), guide.failed)}>
      <Stack>
        <Text size="sm">
          {request.username} asks for {request.value} {UNITS[request.resourceType]} of {request.resourceType}{' '}
          on {request.hostname}.
        </Text>
        <Textarea
          label="Comment for the requester"
          autosize
          minRows={2}
          data-autofocus
          {...form.getInputProps('adminComment')}
        />
        <Group justify="flex-end">
          <FormErrorSummary problems={guide.summary} />
          <Button type="submit" color={action === 'approve' ? 'green' : 'red'} loading={review.isPending}>
            {action === 'approve' ? 'Approve' : 'Deny'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type ReviewAction = 'approve' | 'deny';

/** The columns of the request list; an administrator also sees who asked and can review. */
function requestColumns(
  isAdmin: boolean,
  review: (request: ResourceRequest, action: ReviewAction) => void,
): Array<Column<ResourceRequest>> {
  const columns: Array<Column<ResourceRequest> | false> = [
    {
      key: 'container',
      header: 'Container',
      phone: 'title',
      cell: (r) => (
        <>
          <Text fw={500} size="sm">
            {r.hostname}
          </Text>
          <Text size="xs" c="dimmed">
            {r.site?.name ?? `site ${r.siteId}`}
          </Text>
        </>
      ),
    },
    isAdmin && { key: 'user', header: 'User', cell: (r) => r.username },
    {
      key: 'resource',
      header: 'Resource',
      cell: (r) => `${r.resourceType}: ${r.value} ${UNITS[r.resourceType]}`,
    },
    {
      key: 'status',
      header: 'Status',
      cell: (r) => (
        <>
          <StatusBadge status={r.status} />
          {r.reviewedBy ? (
            <Text size="xs" c="dimmed">
              by {r.reviewedBy}
            </Text>
          ) : null}
        </>
      ),
    },
    {
      key: 'comments',
      header: 'Comments',
      cell: (r) => (
        <>
          {r.comment ? <Text size="sm">{r.comment}</Text> : null}
          {r.adminComment ? (
            <Text size="sm" c="dimmed">
              Admin: {r.adminComment}
            </Text>
          ) : null}
        </>
      ),
    },
    { key: 'filed', header: 'Filed', cell: (r) => formatDate(r.createdAt) },
    isAdmin && {
      key: 'review',
      header: 'Review',
      cell: (r) =>
        r.status === 'pending' ? (
          <Group gap={4} wrap="nowrap" justify="flex-end">
            <Button size="xs" color="green" onClick={() => review(r, 'approve')}>
              Approve
            </Button>
            <Button size="xs" color="red" variant="light" onClick={() => review(r, 'deny')}>
              Deny
            </Button>
          </Group>
        ) : null,
    },
  ];
  return columns.filter((column): column is Column<ResourceRequest> => column !== false);
}

export function ResourceRequestsPage() {
  const session = useSession();
  const isAdmin = Boolean(session.data?.isAdmin);
  const [status, setStatus] = useState<ResourceRequest['status'] | ''>(isAdmin ? 'pending' : '');
  const requests = useResourceRequests(status);
  const [filing, setFiling] = useState(false);
  const [review, setReview] = useState<{ request: ResourceRequest; action: ReviewAction } | null>(null);
  return (
    <>
      <PageHeader title={isAdmin ? 'Resource requests' : 'My resource requests'}>
        <Button onClick={() => setFiling(true)}>New request</Button>
      </PageHeader>
      <SegmentedControl
        mb="md"
        value={status}
        onChange={setStatus}
        data={[
          { value: '', label: 'All' },
          { value: 'pending', label: 'Pending' },
          { value: 'approved', label: 'Approved' },
          { value: 'denied', label: 'Denied' },
        ]}
      />
      <QueryState
        query={requests}
        empty={
          <EmptyState title="No requests">
            Ask for more memory, swap, CPUs or disk for a container.
          </EmptyState>
        }
      >
        {(list) => (
          <DataTable
            data-testid="requests-table"
            rows={list}
            rowKey={(r) => r.id}
            columns={requestColumns(isAdmin, (request, action) => setReview({ request, action }))}
          />
        )}
      </QueryState>
      <Modal opened={filing} onClose={() => setFiling(false)} title="Request resources">
        {filing ? <RequestForm onDone={() => setFiling(false)} /> : null}
      </Modal>
      <Modal
        opened={review !== null}
        onClose={() => setReview(null)}
        title={review?.action === 'deny' ? 'Deny request' : 'Approve request'}
      >
        {review ? <ReviewForm {...review} onDone={() => setReview(null)} /> : null}
      </Modal>
    </>
  );
}
