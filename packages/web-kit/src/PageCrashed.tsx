import { Alert, Button, Center } from '@mantine/core';

/**
 * What a page that failed to render shows: what happened and what to do, never the error's stack (it
 * goes to the console). A page's code that cannot be fetched is the usual cause: the network dropped,
 * or a new release replaced the files this tab was loaded with.
 */
export function PageCrashed() {
  return (
    <Center p="xl">
      <Alert color="red" title="This page could not be shown" role="alert" maw={560}>
        Something in the page went wrong, or its code could not be loaded (the network, or a new version of
        this app). Reload to try again, or go back; if it happens again, tell whoever runs this server.
        <Button mt="sm" display="block" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </Alert>
    </Center>
  );
}
