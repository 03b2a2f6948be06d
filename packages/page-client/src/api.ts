import type { CrawlerConfig } from './scanner.ts';

export interface Translation {
  key: string;
  context: string;
  value: string;
}

const MAX_KEYS_PER_CALL = 1000;

/** The translator's HTTP API as the page client uses it. */
export class Api {
  constructor(
    private readonly server: string,
    private readonly apiKey: string,
  ) {}

  private async call<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await fetch(this.server + path, {
      ...init,
      headers: { 'x-api-key': this.apiKey, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    });
    if (!response.ok) throw new Error(`loco: ${init.method ?? 'GET'} ${path} answered ${response.status}`);
    return response.json() as Promise<T>;
  }

  /** The crawler configuration, and whether the site has language addresses (SEO mode). */
  crawlerConfig = () => this.call<CrawlerConfig & { languagePaths?: boolean }>('/api/project/crawler-config');
  /** The configured languages, or with `delivered` only those with translations to show. */
  languages = (delivered: boolean) =>
    this.call<{ code: string; name: string }[]>(`/api/languages${delivered ? '?delivered=yes' : ''}`);
  translations = (lang: string) =>
    this.call<Translation[]>(`/api/translations?lang=${encodeURIComponent(lang)}`);

  async register(keys: { key: string; context: string; slots?: string[] }[], url: string) {
    for (let start = 0; start < keys.length; start += MAX_KEYS_PER_CALL) {
      await this.call('/api/textnodes', {
        method: 'POST',
        body: JSON.stringify({ keys: keys.slice(start, start + MAX_KEYS_PER_CALL), url }),
        keepalive: keys.length < 200,
      });
    }
  }
}
