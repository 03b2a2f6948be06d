import type * as Undici from 'undici';

let loading: Promise<typeof Undici> | undefined;

/**
 * undici, loaded by the first outbound call rather than at start: most starts make none, and it was
 * a sixth of a service's memory after start.
 */
export function loadUndici(): Promise<typeof Undici> {
  return (loading ??= import('undici'));
}
