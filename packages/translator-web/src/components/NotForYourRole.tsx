import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useAuth } from '../auth.tsx';
import { ROLE_NAMES } from './roles.ts';

/** Says why a page shows no controls for what the signed-in role may not do (`children`). */
export function NotForYourRole({ children }: { children: ReactNode }) {
  const { membership } = useAuth();
  if (!membership) return null;
  return (
    <Text size="sm" c="dimmed" data-testid="not-for-role">
      As {ROLE_NAMES[membership.role].toLowerCase()} you read this page; {children} are for other roles.
    </Text>
  );
}
