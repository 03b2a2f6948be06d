import { Code, Group, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { rememberedSite, useSites } from '../../api/fleet.ts';
import { agentTokenCalls } from '../../api/credentials.ts';
import { CredentialsPanel } from '../../components/Credentials.tsx';
import { SitePicker } from '../../components/SitePicker.tsx';

/** One site's agent tokens: what its gateway's agent checks in with (AGENT_TOKEN); shown once, revocable. */
export function AgentTokensSection() {
  const sites = useSites();
  const [picked, setPicked] = useState<number>();
  const known = sites.data?.map((site) => site.id) ?? [];
  const remembered = rememberedSite();
  const siteId = picked ?? (remembered !== null && known.includes(remembered) ? remembered : known[0]);
  if (siteId === undefined) return null;
  const siteName = sites.data?.find((site) => site.id === siteId)?.name ?? `#${siteId}`;
  return (
    <section data-testid="agent-tokens">
      <Group justify="space-between" mt="xl" mb="xs">
        <Title order={3}>Agent tokens of {siteName}</Title>
        <SitePicker value={siteId} onChange={setPicked} />
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        An agent on a host other than the manager’s checks in with its site’s token: put it in{' '}
        <Code>AGENT_TOKEN</Code> in <Code>/etc/site-agent/env</Code>. A token is good only for this site’s
        check-in and traffic reports.
      </Text>
      <CredentialsPanel
        key={siteId}
        {...agentTokenCalls(siteId)}
        prefixOf={(token) => token.tokenPrefix}
        shownOnce={(created) => ({ secret: created.token, warning: created.warning })}
        tableTestId="agent-tokens-table"
        words={{
          create: 'Create token',
          placeholder: 'e.g. gateway gw1',
          empty: 'No agent tokens for this site',
          newTitle: `New agent token for ${siteName}`,
          remove: 'Revoke',
          removeTitle: 'Revoke agent token',
          removed: 'Agent token revoked',
          removeMessage: (prefix) => `The agent using ${prefix}… is refused from its next check-in on.`,
        }}
      />
    </section>
  );
}
