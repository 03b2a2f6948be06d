import { Code, Text } from '@mantine/core';
import { apiKeyCalls } from '../api/credentials.ts';
import { PageHeader } from '../components/common.tsx';
import { CredentialsPanel } from '../components/Credentials.tsx';

export function ApiKeysPage() {
  return (
    <>
      <PageHeader title="API keys" />
      <Text size="sm" c="dimmed" mb="md">
        Automation authenticates with <Code>Authorization: Bearer &lt;key&gt;</Code>. A key acts as you.
      </Text>
      <CredentialsPanel
        {...apiKeyCalls}
        prefixOf={(key) => key.keyPrefix}
        shownOnce={(created) => ({ secret: created.key, warning: created.warning })}
        tableTestId="apikeys-table"
        words={{
          create: 'Create key',
          placeholder: 'e.g. CI deploy',
          empty: 'No API keys yet',
          newTitle: 'Your new API key',
          remove: 'Delete',
          removeTitle: 'Delete API key',
          removed: 'API key deleted',
          removeMessage: (prefix) => `Anything using the key ${prefix}… stops working at once.`,
        }}
      />
    </>
  );
}
