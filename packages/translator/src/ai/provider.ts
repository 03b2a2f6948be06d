import type { AiCallRecorder } from '../observability/metrics.ts';
import type { AiConfig } from '../config.ts';
import { postToProvider, ProviderError, withRetries } from './provider-call.ts';

export { ProviderError } from './provider-call.ts';
import { slotSignature } from '@app/slots';

export interface BatchItem {
  id: string;
  text: string;
}

export interface BatchRequest {
  apiKey: string;
  lang: string;
  languageName: string;
  prompt: string;
  /** The glossary's lines for this batch's texts ('' when none of its terms appears). */
  glossary?: string | undefined;
  items: BatchItem[];
  /**
   * Screenshots (PNG) of where items appear, by item id: sent as images with the items they show, to
   * engines that take images (the chat API); others ignore them.
   */
  images?: Map<string, Buffer> | undefined;
  signal?: AbortSignal | undefined;
}

export interface BatchResult {
  /** Valid translations by item id. */
  translated: Map<string, string>;
  /** Items the reply left out, or whose slot tokens differ from the source's. */
  rejected: { id: string; reason: string }[];
}

/** What the model is told of the screenshots a batch carries. */
const SCREENSHOT_INSTRUCTIONS = [
  '',
  'Some items have a "screenshot": the number of the image after this text that shows where the item appears on',
  'its page, the text outlined in red. Use it as context (what kind of element, what it sits beside); translate',
  'only the item’s text.',
];

/**
 * The user message: the batch as JSON, then each screenshot as an image part (items name theirs by its
 * place among the images); a plain string when there are none.
 */
function userContent(batch: BatchRequest): string | ChatContentPart[] {
  const images: Buffer[] = [];
  const items = batch.items.map((item) => {
    const png = batch.images?.get(item.id);
    if (!png) return item;
    images.push(png);
    return { ...item, screenshot: images.length };
  });
  const text = JSON.stringify({ targetLanguage: batch.lang, items });
  if (!images.length) return textContent(batch);
  return [
    { type: 'text', text },
    ...images.map((png) => ({
      type: 'image_url' as const,
      image_url: { url: `data:image/png;base64,${png.toString('base64')}`, detail: 'low' as const },
    })),
  ];
}

/** The user message without images: the batch as JSON. */
const textContent = (batch: BatchRequest) =>
  JSON.stringify({ targetLanguage: batch.lang, items: batch.items });

/** A part of a chat message's content, as the chat-completions API takes them. */
type ChatContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail: 'low' | 'high' | 'auto' } };

function instructions(
  prompt: string,
  lang: string,
  languageName: string,
  glossary = '',
  screenshots = false,
) {
  return [
    prompt.trim(),
    ...(glossary ? ['', glossary] : []),
    '',
    `Translate the "text" of every item into ${languageName} (${lang}).`,
    'Tokens such as {{number:0}} or {{text:1}} are placeholders for values and markup: copy each one into the',
    'translation unchanged, exactly once, where it belongs in the sentence. Keep each item’s id.',
    'Answer with JSON only, in the form {"items":[{"id":"…","text":"…"}]}, with one entry per item.',
    ...(screenshots ? SCREENSHOT_INSTRUCTIONS : []),
  ].join('\n');
}

/** The items of a reply: `{"items":[…]}` (or `translations`), or a bare array, inside optional code fences. */
function parseItems(content: string): BatchItem[] {
  const text = content
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/```$/, '')
    .trim();
  const parsed: unknown = JSON.parse(text);
  const list = Array.isArray(parsed)
    ? parsed
    : ((parsed as { items?: unknown; translations?: unknown }).items ??
      (parsed as { translations?: unknown }).translations);
  if (!Array.isArray(list)) throw new Error('no items array');
  return list.flatMap((entry) =>
    entry && typeof entry === 'object' && typeof entry.text === 'string' && entry.id !== undefined
      ? [{ id: String(entry.id), text: entry.text }]
      : [],
  );
}

interface Completion {
  choices?: { message?: { content?: string } }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

/** The token counts an answer reports, when it reports them as numbers. */
function usageOf(completion: Completion) {
  const prompt = completion.usage?.prompt_tokens;
  const answer = completion.usage?.completion_tokens;
  if (typeof prompt !== 'number' || typeof answer !== 'number') return undefined;
  return { promptTokens: Math.max(0, prompt), completionTokens: Math.max(0, answer) };
}

/** An OpenAI-compatible chat-completions client that translates a batch of items per call. */
export class ChatProvider {
  constructor(
    private readonly config: AiConfig,
    private readonly metrics?: AiCallRecorder,
  ) {}

  /** Set once the model refused a batch with images: it reads text only, later batches send none. */
  private textOnly = false;

  /**
   * One call; throws ProviderError when the call itself fails. A batch with images that the model
   * refuses (400: not every model takes images) is sent again without them.
   */
  async translateBatch(batch: BatchRequest): Promise<BatchResult> {
    const withImages = !this.textOnly && batch.items.some((item) => batch.images?.has(item.id));
    let text: string;
    try {
      text = await this.call(batch, withImages);
    } catch (error) {
      if (!withImages || !(error instanceof ProviderError) || error.status !== 400) throw error;
      this.textOnly = true;
      text = await this.call(batch, false);
    }
    let items: BatchItem[];
    let completion: Completion | undefined;
    try {
      completion = JSON.parse(text) as Completion;
      items = parseItems(completion.choices?.[0]?.message?.content ?? '');
      this.metrics?.aiCall('ok', usageOf(completion));
    } catch {
      // An unreadable answer is treated like a dropped batch: every item is retried, then failed.
      this.metrics?.aiCall('unreadable', completion && usageOf(completion));
      return this.counted({
        translated: new Map(),
        rejected: batch.items.map((item) => ({ id: item.id, reason: 'unreadable reply' })),
      });
    }
    return this.counted(check(batch.items, items));
  }

  private call(batch: BatchRequest, withImages: boolean): Promise<string> {
    return postToProvider(
      {
        url: `${this.config.baseUrl}/chat/completions`,
        authorization: `Bearer ${batch.apiKey}`,
        body: {
          model: this.config.model,
          temperature: 0.2,
          response_format: { type: 'json_object' },
          messages: [
            {
              role: 'system',
              content: instructions(batch.prompt, batch.lang, batch.languageName, batch.glossary, withImages),
            },
            { role: 'user', content: withImages ? userContent(batch) : textContent(batch) },
          ],
        },
        signal: batch.signal,
        timeoutMs: this.config.requestTimeoutMs,
      },
      this.metrics,
    );
  }

  private counted(result: BatchResult): BatchResult {
    this.metrics?.aiPhrases(result.translated.size, result.rejected.length);
    return result;
  }

  translateWithRetry(batch: BatchRequest): Promise<BatchResult> {
    return withRetries(this.config, batch, () => this.translateBatch(batch));
  }
}

/** Keeps the answers that name a sent item and carry exactly its slot tokens. */
export function check(sent: BatchItem[], received: BatchItem[]): BatchResult {
  const byId = new Map(received.map((item) => [item.id, item.text]));
  const translated = new Map<string, string>();
  const rejected: BatchResult['rejected'] = [];
  for (const item of sent) {
    const text = byId.get(item.id);
    if (text === undefined || text.trim() === '')
      rejected.push({ id: item.id, reason: 'missing from the reply' });
    else if (slotSignature(text) !== slotSignature(item.text))
      rejected.push({ id: item.id, reason: 'slot tokens changed' });
    else translated.set(item.id, text);
  }
  return { translated, rejected };
}
