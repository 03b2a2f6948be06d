import { Button } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { accounts } from '../api.ts';
import { useAuth } from '../auth.tsx';
import { notifyError } from './common.tsx';

/**
 * Opens a page of the site in edit mode: a short-lived token of the signed-in account goes in the
 * address's fragment (never sent to the site's server), and the page client shows its editor. Only for
 * a page on one of the project's allowed origins (`onAllowedOrigin`, from the server): the token would
 * go to whoever runs any other page; the server makes it for that page's origin only, and refuses others.
 */
export function EditOnPage({ url, onAllowedOrigin }: { url: string; onAllowedOrigin: boolean }) {
  const { session, can } = useAuth();
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
  if (!session || !can('translate') || !onAllowedOrigin) return null;
  return (
    <Button variant="default" onClick={() => open.mutate()} loading={open.isPending}>
      Edit on this page
    </Button>
  );
}
