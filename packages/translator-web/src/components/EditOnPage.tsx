import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { accounts } from '../api.ts';
import { useAuth } from '../auth.tsx';
import { notifyError } from './common.tsx';

/**
 * Opens a page of the site in edit mode: a short-lived token of the signed-in account goes in the
 * address's fragment (never sent to the site's server), and the page client shows its editor. Only for
 * a page on one of the project's allowed origins (`onAllowedOrigin`, from the server): the token would
 * go to whoever runs any other page; the server makes it for that page's origin only, and refuses others.
 * A token names the account whose role every use checks again, so the project API key gets none: signed
 * in with the key, the control says so and where an account comes from.
 */
export function EditOnPage({ url, onAllowedOrigin }: { url: string; onAllowedOrigin: boolean }) {
  const { apiKey, session, can } = useAuth();
  const why = useId();
  // The tab opens at once (a popup blocker allows it during the click); the address follows the token.
  const open = useMutation({
    mutationFn: async () => {
      const tab = window.open('about:blank', '_blank');
      try {
        const { token } = await accounts.editToken(url);
        const target = new URL(url);
        target.hash = `loco-edit=${token}`;
        if (tab) {
          tab.opener = null;
          tab.location.href = target.href;
        } else window.location.href = target.href;
      } catch (error) {
        tab?.close();
        throw error;
      }
    },
    onError: (error) => notifyError(error, 'The page could not be opened for editing'),
  });
  if (!onAllowedOrigin) return null;
  if (apiKey)
    return (
      <Stack gap={2} maw={360}>
        <Button variant="default" disabled aria-describedby={why}>
          Edit on this page
        </Button>
        <Text id={why} size="xs" c="dimmed">
          In-page editing needs a member account, not the project API key:{' '}
          <Anchor component={Link} to="/team" size="xs">
            invite yourself under Team
          </Anchor>
          , accept the invitation and sign in with that account.
        </Text>
      </Stack>
    );
  if (!session || !can('translate')) return null;
  return (
    <Button variant="default" onClick={() => open.mutate()} loading={open.isPending}>
      Edit on this page
    </Button>
  );
}
