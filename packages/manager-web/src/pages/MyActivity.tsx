import { Text } from '@mantine/core';
import { useMyActivity } from '../api/audit.ts';
import { AuditTable } from '../components/AuditTable.tsx';
import { PageHeader } from '../components/common.tsx';

/** The signed-in user's own audit entries: sign-ins and every change they made. */
export function MyActivityPage() {
  const activity = useMyActivity();
  return (
    <>
      <PageHeader title="My activity" />
      <Text c="dimmed" mb="md">
        Your sign-ins and the changes you made, newest first, as the audit log keeps them.
      </Text>
      <AuditTable query={activity} testId="activity-table" />
    </>
  );
}
