import { Badge, NavLink } from '@mantine/core';
import { Link, useLocation } from 'react-router';

export interface NavItem {
  to: string;
  label: string;
  badge?: number;
  /** What the badge counts, for screen readers ("3 unread"). */
  badgeLabel?: string;
  /** Paths this entry is active for (default: the entry's path and below). */
  match?: RegExp;
}

/** The badge reads at most the first 100 (the lists behind badges answer 100 at a time). */
const badgeText = (count: number) => (count >= 100 ? '99+' : String(count));

/** The entries of an app's navigation; the one for the current page marked active. */
export function NavLinks({ items, onNavigate }: { items: NavItem[]; onNavigate: () => void }) {
  const { pathname } = useLocation();
  return (
    <>
      {items.map((item) => (
        <NavLink
          key={item.to}
          component={Link}
          to={item.to}
          label={item.label}
          active={
            item.match
              ? item.match.test(pathname)
              : pathname === item.to || pathname.startsWith(`${item.to}/`)
          }
          onClick={onNavigate}
          rightSection={
            item.badge ? (
              <Badge
                size="xs"
                color="red"
                circle
                aria-label={`${badgeText(item.badge)} ${item.badgeLabel ?? 'unread'}`}
              >
                {badgeText(item.badge)}
              </Badge>
            ) : null
          }
        />
      ))}
    </>
  );
}
