import { SLOT_TOKEN } from '@app/slots';
import type { AiCallRecorder } from '../observability/metrics.ts';
import type { AiConfig } from '../config.ts';
import { check, type BatchItem, type BatchRequest, type BatchResult } from './provider.ts';
import { postToProvider, withRetries } from './provider-call.ts';
import { escapeXml } from '../files/xml.ts';

/** DeepL takes at most 50 texts per request. */
const TEXTS_PER_CALL = 50;

/** DeepL's target code for ours: `EN` and `PT` need a variant now, `ZH` means simplified. */
export function deeplTarget(lang: string): string {
  const code = lang.toUpperCase();
  return ({ EN: 'EN-US', PT: 'PT-PT', ZH: 'ZH-HANS' } as Record<string, string>)[code] ?? code;
}

/** A text as DeepL's XML mode reads it: slots as `<x/>` tags it leaves alone, the rest escaped. */
export function toDeepLXml(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(SLOT_TOKEN)) {
    out += `${escapeXml(text.slice(last, match.index))}<x id="${match[1]}-${match[2]}"/>`;
    last = match.index + match[0].length;
  }
  return out + escapeXml(text.slice(last));
}

/**
 * DeepL's XML answer as our text: `<x/>` tags (self-closed or not) back as slot tokens, entities and
 * character references (the escaped CR of `escapeXml`) read.
 */
export function fromDeepLXml(xml: string): string {
  return xml
    .replace(/<x id="([a-z][a-z0-9_]{0,31})-(\d{1,3})"\s*(?:\/>|><\/x>)/g, '{{$1:$2}}')
    .replace(
      /&(?:(lt|gt|quot|apos|amp)|#x([0-9a-f]+)|#(\d+));/gi,
      (_, name?: string, hex?: string, decimal?: string) =>
        name
          ? { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' }[name]!
          : String.fromCodePoint(hex ? Number.parseInt(hex, 16) : Number(decimal)),
    );
}

interface DeepLAnswer {
  translations?: { text?: unknown }[];
}

/**
 * DeepL's text translation API (`/v2/translate`) for a batch: up to 50 texts a call, in XML mode so the
 * slots pass through as tags. DeepL takes no prompt; a free key (`…:fx`) goes to the free API's host.
 */
export class DeepLProvider {
  constructor(
    private readonly config: AiConfig,
    private readonly metrics?: AiCallRecorder,
  ) {}

  private baseUrl(apiKey: string) {
    return (
      this.config.deeplBaseUrl ??
      (apiKey.endsWith(':fx') ? 'https://api-free.deepl.com' : 'https://api.deepl.com')
    );
  }

  async translateBatch(batch: BatchRequest): Promise<BatchResult> {
    const received: BatchItem[] = [];
    for (let start = 0; start < batch.items.length; start += TEXTS_PER_CALL) {
      const items = batch.items.slice(start, start + TEXTS_PER_CALL);
      const text = await postToProvider(
        {
          url: `${this.baseUrl(batch.apiKey)}/v2/translate`,
          authorization: `DeepL-Auth-Key ${batch.apiKey}`,
          body: {
            text: items.map((item) => toDeepLXml(item.text)),
            target_lang: deeplTarget(batch.lang),
            tag_handling: 'xml',
            ignore_tags: ['x'],
          },
          signal: batch.signal,
          timeoutMs: this.config.requestTimeoutMs,
        },
        this.metrics,
      );
      let answer: DeepLAnswer;
      try {
        answer = JSON.parse(text) as DeepLAnswer;
        this.metrics?.aiCall('ok');
      } catch {
        this.metrics?.aiCall('unreadable');
        continue;
      }
      items.forEach((item, index) => {
        const translated = answer.translations?.[index]?.text;
        if (typeof translated === 'string') received.push({ id: item.id, text: fromDeepLXml(translated) });
      });
    }
    const result = check(batch.items, received);
    this.metrics?.aiPhrases(result.translated.size, result.rejected.length);
    return result;
  }

  translateWithRetry(batch: BatchRequest): Promise<BatchResult> {
    return withRetries(this.config, batch, () => this.translateBatch(batch));
  }
}
