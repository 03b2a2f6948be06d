/**
 * Flags for a headless Chromium that reaches nothing outside the pages it renders (no updates, sync,
 * metrics or QUIC), for the translator's screenshots and the browser tests alike.
 */
export const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];
