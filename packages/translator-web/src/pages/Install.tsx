import { Alert, Anchor, Button, Code, CopyButton, List, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PageTitle, QueryView } from '../components/common.tsx';
import { useLanguages, useProject } from '../data/project.ts';

export function Install() {
  const project = useProject();
  const languages = useLanguages();
  const origin = window.location.origin;
  const example = languages.data?.[0]?.code ?? 'fr';
  return (
    <>
      <PageTitle>Install</PageTitle>
      <QueryView query={project} label="Loading the page key…">
        {(p) => {
          const snippet = `<script src="${origin}/client.js" data-api-key="${p.page_key}"></script>`;
          const origins = p.settings.allowedOrigins;
          return (
            <Stack maw={820}>
              <Paper withBorder p="md">
                <Title order={3} size="h4" mb="xs">
                  Add the client script to your pages
                </Title>
                <Text size="sm" mb="sm">
                  Paste this tag into the <Code>&lt;head&gt;</Code> of every page to translate. It registers
                  the page’s text here for review and shows approved translations.
                </Text>
                <Code
                  block
                  data-testid="install-snippet"
                  style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
                >
                  {snippet}
                </Code>
                <CopyButton value={snippet}>
                  {({ copied, copy }) => (
                    <Button mt="sm" variant="light" onClick={copy}>
                      {copied ? 'Copied' : 'Copy snippet'}
                    </Button>
                  )}
                </CopyButton>
                {origins.length ? (
                  <Text size="sm" mt="sm" data-testid="install-origins">
                    Pages on {origins.join(', ')} may use it.
                  </Text>
                ) : (
                  <Alert color="orange" mt="sm" data-testid="install-no-origins">
                    No page may use this key yet: add your site’s origin (such as https://shop.example) under{' '}
                    <Anchor component={Link} to="/settings">
                      Settings → Allowed origins
                    </Anchor>
                    .
                  </Alert>
                )}
              </Paper>
              <Paper withBorder p="md">
                <Title order={3} size="h4" mb="xs">
                  Choosing the language
                </Title>
                <List size="sm" spacing={4}>
                  <List.Item>
                    Add <Code>data-lang="{example}"</Code> to the tag to fix the language, or
                  </List.Item>
                  <List.Item>
                    link to a page with <Code>?lang={example}</Code> — the choice is remembered, or
                  </List.Item>
                  <List.Item>
                    call <Code>Loco.setLanguage('{example}')</Code> from your language switcher (
                    <Code>null</Code> shows the original).
                  </List.Item>
                  <List.Item>Otherwise the visitor’s browser language is used.</List.Item>
                </List>
                <Text size="sm" mt="sm">
                  Mark text that must stay as it is with <Code>translate="no"</Code> or{' '}
                  <Code>data-loco-ignore="true"</Code>. The page key is public by design (it is in your
                  pages): it can only register phrases and read approved translations, from your allowed
                  origins. Never put the full API key in a page; if the page key lands on the wrong site,{' '}
                  <Anchor component={Link} to="/settings">
                    regenerate it
                  </Anchor>
                  .
                </Text>
              </Paper>
            </Stack>
          );
        }}
      </QueryView>
    </>
  );
}
