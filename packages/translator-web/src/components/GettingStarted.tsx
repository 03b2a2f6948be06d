import { Anchor, List, Paper, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useSummary } from '../data/analytics.ts';
import { rowKeys } from '../data/phrases.ts';
import { useProject } from '../data/project.ts';

/** While no page has been seen, the summary is asked again this often, so the last step ticks itself. */
const FIRST_PAGE_POLL_MS = 5_000;

interface Step {
  done: boolean;
  label: ReactNode;
}

/**
 * The first steps of a new project — languages, allowed origin, the script in a page, a page seen —
 * each ticked once it is so; gone once all are.
 */
export function GettingStarted() {
  const project = useProject();
  const summary = useSummary({ pollUntilFirstPageMs: FIRST_PAGE_POLL_MS });
  const pageSeen = (summary.data?.uniqueUrls ?? 0) > 0;
  const queryClient = useQueryClient();
  const waited = useRef(false);
  useEffect(() => {
    // The first page's phrases arrived while this page waited: show them.
    if (summary.data && !pageSeen) waited.current = true;
    if (pageSeen && waited.current) void queryClient.invalidateQueries({ queryKey: rowKeys.all });
  }, [summary.data, pageSeen, queryClient]);
  if (!project.data || !summary.data) return null;
  const { settings } = project.data;
  const steps: Step[] = [
    {
      done: settings.languages.length > 0,
      label: (
        <>
          Choose the languages to translate into, in{' '}
          <Anchor component={Link} to="/settings">
            Settings
          </Anchor>
          .
        </>
      ),
    },
    {
      done: settings.allowedOrigins.length > 0,
      label: (
        <>
          Allow your site’s origin (such as https://shop.example) in{' '}
          <Anchor component={Link} to="/settings">
            Settings → Allowed origins
          </Anchor>
          .
        </>
      ),
    },
    {
      done: pageSeen,
      label: (
        <>
          Add the script tag from{' '}
          <Anchor component={Link} to="/install">
            Install
          </Anchor>{' '}
          to your pages.
        </>
      ),
    },
    {
      done: pageSeen,
      label: pageSeen
        ? 'A page was seen: its phrases are below.'
        : 'Open one of those pages: this list ticks itself once its text arrives.',
    },
  ];
  if (steps.every((step) => step.done)) return null;
  return (
    <Paper withBorder p="md" mb="md" data-testid="getting-started" aria-labelledby="getting-started-title">
      <Title order={3} size="h4" mb="xs" id="getting-started-title">
        Get started
      </Title>
      <List spacing={6} size="sm" center>
        {steps.map((step, index) => (
          <List.Item
            key={index}
            data-done={step.done}
            icon={
              <ThemeIcon size={20} radius="xl" color={step.done ? 'green' : 'gray'} variant="light">
                <Text size="xs" fw={700} aria-hidden="true">
                  {step.done ? '✓' : index + 1}
                </Text>
              </ThemeIcon>
            }
          >
            <VisuallyHidden>{step.done ? 'Done: ' : 'To do: '}</VisuallyHidden>
            {step.label}
          </List.Item>
        ))}
      </List>
    </Paper>
  );
}
