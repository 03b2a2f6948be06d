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

/**
 * Flags that leave a browser one way out, the forward proxy at `proxyUrl` (see ForwardProxy): loopback
 * goes through it too (Chromium bypasses proxies for loopback unless told `<-loopback>`), Chromium
 * resolves no name itself, WebRTC sends no UDP past the proxy, and nothing is prefetched.
 */
export function proxiedChromiumArgs(proxyUrl: string): string[] {
  return [
    `--proxy-server=${proxyUrl}`,
    '--proxy-bypass-list=<-loopback>',
    `--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE ${new URL(proxyUrl).hostname}`,
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--dns-prefetch-disable',
  ];
}
