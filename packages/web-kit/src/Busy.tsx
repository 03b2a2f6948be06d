import { Loader, type LoaderProps } from '@mantine/core';

/**
 * A spinner that says what it waits for. Mantine's Loader is a bare span, on which an aria-label is not
 * permitted (axe: aria-prohibited-attr) and not announced; as a status it is both.
 */
export function Busy({ label, ...props }: Omit<LoaderProps, 'aria-label' | 'role'> & { label: string }) {
  return <Loader role="status" aria-label={label} {...props} />;
}
