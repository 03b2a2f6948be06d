import { Anchor } from '@mantine/core';
import { FirstSteps, type FirstStep } from '@app/web-kit';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useSummary } from '../data/analytics.ts';
import { rowKeys } from '../data/phrases.ts';
import { useProject } from '../data/project.ts';

/** While no page has been seen, the summary is asked again this often, so the last step ticks itself. */
const FIRST_PAGE_POLL_MS = 5_000;

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
  const steps: FirstStep[] = [
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
  return <FirstSteps title="Get started" steps={steps} testId="getting-started" />;
}
