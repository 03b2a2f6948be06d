import { Alert, Anchor } from '@mantine/core';
import type { ReactNode } from 'react';
import { useHealth } from '../api/session.ts';

const LINK = /\[([^\]\n]+)\]\(([^)\s]+)\)/g;

/** Only web and mail links, and same-site paths: never `javascript:` or other schemes. */
export function safeHref(url: string): string | null {
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  try {
    const parsed = new URL(url);
    return ['http:', 'https:', 'mailto:'].includes(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
}

/** Text with `[text](url)` links as React nodes: everything else stays text, so no HTML gets in. */
export function renderLinks(text: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const [whole, label = '', url = ''] = match;
    const index = match.index ?? 0;
    if (index > last) parts.push(text.slice(last, index));
    const href = safeHref(url);
    parts.push(
      href ? (
        <Anchor key={index} href={href} target="_blank" rel="noopener noreferrer" inherit underline="always">
          {label}
        </Anchor>
      ) : (
        whole
      ),
    );
    last = index + whole.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

export function BannerText({ text }: { text: string }) {
  return <>{renderLinks(text)}</>;
}

/** The announcement banner from GET /health, shown on every page. */
export function Banner() {
  const health = useHealth();
  const banner = health.data?.banner;
  if (!banner) return null;
  return (
    <Alert color="yellow" variant="light" radius={0} data-testid="banner" role="status">
      <BannerText text={banner} />
    </Alert>
  );
}
