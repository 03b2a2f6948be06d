import { Anchor } from '@mantine/core';
import { FirstSteps } from '@app/web-kit';
import { useQueries } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { containersQuery } from '../api/containers.ts';
import { dismissOnboarding, onboardingDismissed, useSites } from '../api/fleet.ts';
import { useSession } from '../api/session.ts';

const step = (to: string | null, name: string, what: string): ReactNode => (
  <>
    {to ? (
      <Anchor component={Link} to={to}>
        {name}
      </Anchor>
    ) : (
      name
    )}
    : {what}
  </>
);

/**
 * "Get started", for an administrator while the fleet has no container: a site, a node on it, the first
 * container, each ticked as the API says and linking to its form (on `siteId`, the site shown, when
 * given). Gone once any site has a container, or once dismissed in this browser.
 */
export function OnboardingWalk({ siteId }: { siteId?: number }) {
  const session = useSession();
  const sites = useSites();
  const [dismissed, setDismissed] = useState(onboardingDismissed);
  const shown = Boolean(session.data?.isAdmin) && !dismissed;
  const list = sites.data ?? [];
  // The list API is per site; this reads every site only while the walk may be shown.
  const containers = useQueries({
    queries: list.map((site) => ({ ...containersQuery(site.id), enabled: shown })),
  });
  if (!shown || !sites.data || containers.some((read) => !read.data)) return null;
  if (containers.some((read) => read.data!.length > 0)) return null;

  const site = list.find((s) => s.id === siteId) ?? list[0];
  const hasNodes = (s: { nodeCount?: number }) => (s.nodeCount ?? 0) > 0;
  // The first container goes where a node can run it.
  const ready = site && hasNodes(site) ? site : list.find(hasNodes);
  const steps = [
    {
      done: list.length > 0,
      label: step('/sites', 'Create a site', 'the network, gateway and DNS domain its nodes share.'),
    },
    {
      done: Boolean(ready),
      label: step(
        site ? `/sites/${site.id}/nodes/new` : null,
        'Add a node',
        'a Proxmox VE host or a Docker-API engine that runs the containers.',
      ),
    },
    {
      done: false,
      label: step(
        ready ? `/sites/${ready.id}/containers/new` : null,
        'Create your first container',
        'from an image or a template, with its services; its job shows the progress.',
      ),
    },
  ];
  const dismiss = () => {
    dismissOnboarding();
    setDismissed(true);
  };
  return <FirstSteps title="Get started" steps={steps} onDismiss={dismiss} />;
}
