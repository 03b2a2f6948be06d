import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { useSession } from '../api/session.ts';
import { OnboardingWalk } from './OnboardingWalk.tsx';
import { EmptyState } from './common.tsx';

/** A fleet without a site: the onboarding walk and what to do, for an administrator; what to wait for, for others. */
export function NoSitesYet() {
  const session = useSession();
  return (
    <>
      <OnboardingWalk />
      <EmptyState title="No sites yet">
        {session.data?.isAdmin ? (
          <>
            Containers live on the nodes of a site.{' '}
            <Anchor component={Link} to="/sites">
              Create a site
            </Anchor>{' '}
            to start.
          </>
        ) : (
          'An administrator has not set up a site yet.'
        )}
      </EmptyState>
    </>
  );
}
