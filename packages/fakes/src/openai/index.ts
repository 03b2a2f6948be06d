/**
 * A fake of the OpenAI chat-completions API (`POST /v1/chat/completions`, `GET /v1/models`), on real
 * HTTP, for tests and demos of the translator's AI jobs. It cannot translate, so it "translates" the
 * items of the translator's batch format (a user message holding `{"items":[{"id","text"}]}`) with a
 * visible marker, keeping slot tokens; anything else gets a short echo. Content may come as parts (text
 * and images, validated as the real API does; `requests` keeps them). Its failure modes are the ones
 * the real API has: slowness, 429 with Retry-After, 5xx, a reply missing an item, a mangled token.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../shared/read-body.ts';

export interface FakeOpenAIBehaviour {
  /** When set, requests must carry `Authorization: Bearer <apiKey>` (else 401 invalid_api_key). */
  apiKey?: string | undefined;
  /** Delay before each answer. */
  latencyMs: number;
  /** While set, every answer waits for it (a test holds a job in flight for as long as it looks). */
  gate?: Promise<void> | undefined;
  /** The next N requests are answered 429 (then the counter runs down). */
  rateLimitNext: number;
  /** Seconds sent in Retry-After with a 429 (Retry-After-Ms is sent too, as the real API does). */
  retryAfterMs: number;
  /** The next N requests are answered 500 (after any 429s). */
  serverErrorNext: number;
  /** Items whose source text matches are left out of the reply. */
  dropItem: (text: string) => boolean;
  /** Items whose source text matches get their slot tokens broken (`{{number:0}}` → `{number:0}`). */
  mangleSlot: (text: string) => boolean;
  /** The "translation" of one item. */
  translate: (text: string, language: string) => string;
  /** A model that reads text only: a request with an image is refused (400), as such models are. */
  textOnly: boolean;
}

/** A part of a message's content, as the real API takes them (text, or an image by URL or data URL). */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } };

/**
 * A message as received: `content` is its text (the text parts joined by a blank line when it came as
 * parts), `parts` the parts themselves when it came as parts.
 */
export interface RecordedMessage {
  role: string;
  content: string;
  parts?: ContentPart[] | undefined;
}

export interface RecordedRequest {
  authorization: string | undefined;
  model: string;
  messages: RecordedMessage[];
  status: number;
  at: number;
}

export interface FakeOpenAI {
  /** Base URL including `/v1`, as TRANSLATOR_AI_BASE_URL expects. */
  baseUrl: string;
  requests: RecordedRequest[];
  behaviour: FakeOpenAIBehaviour;
  /** Changes behaviour from now on. */
  set(changes: Partial<FakeOpenAIBehaviour>): void;
  /** Requests currently waiting for their answer. */
  inFlight(): number;
  close(): Promise<void>;
}

const never = () => false;

export const defaultBehaviour = (): FakeOpenAIBehaviour => ({
  apiKey: undefined,
  latencyMs: 0,
  gate: undefined,
  rateLimitNext: 0,
  retryAfterMs: 50,
  serverErrorNext: 0,
  dropItem: never,
  mangleSlot: never,
  translate: (text, language) => `[${language}] ${text}`,
  textOnly: false,
});

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

const apiError = (message: string, type: string, code: string | null, param: string | null = null) => ({
  error: { message, type, param, code },
});

const IMAGE_DATA_URL = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

/**
 * Reads the messages as the real API does: `content` is a string or an array of parts; a part is
 * `{type:'text', text}` or `{type:'image_url', image_url:{url, detail?}}` (an https URL or a base64 data URL
 * of a PNG, JPEG, GIF or WebP image), and images go in user messages only. Answers the messages, or the
 * parameter that is wrong.
 */
function readMessages(value: unknown): { messages: RecordedMessage[] } | { param: string; message: string } {
  if (!Array.isArray(value) || value.length === 0)
    return { param: 'messages', message: "Invalid 'messages': expected a non-empty array." };
  const messages: RecordedMessage[] = [];
  for (const [i, message] of value.entries()) {
    const role = typeof message?.role === 'string' ? (message.role as string) : '';
    const content: unknown = message?.content;
    if (typeof content === 'string') {
      messages.push({ role, content });
      continue;
    }
    const where = `messages[${i}].content`;
    if (!Array.isArray(content) || content.length === 0)
      return {
        param: where,
        message: `Invalid '${where}': expected a string or a non-empty array of parts.`,
      };
    const parts: ContentPart[] = [];
    for (const [j, part] of content.entries()) {
      const at = `${where}[${j}]`;
      if (part?.type === 'text' && typeof part.text === 'string') {
        parts.push({ type: 'text', text: part.text });
      } else if (part?.type === 'image_url') {
        const url: unknown = part.image_url?.url;
        const detail: unknown = part.image_url?.detail;
        if (role !== 'user')
          return {
            param: at,
            message: `Invalid '${at}': image content parts are only allowed in user messages.`,
          };
        if (typeof url !== 'string' || !(url.startsWith('https://') || IMAGE_DATA_URL.test(url)))
          return {
            param: `${at}.image_url.url`,
            message: `Invalid '${at}.image_url.url': expected an https URL or a base64-encoded image data URL.`,
          };
        if (detail !== undefined && detail !== 'auto' && detail !== 'low' && detail !== 'high')
          return { param: `${at}.image_url.detail`, message: `Invalid '${at}.image_url.detail'.` };
        parts.push({ type: 'image_url', image_url: { url, ...(detail ? { detail } : {}) } });
      } else {
        return { param: `${at}.type`, message: `Invalid '${at}.type': expected one of 'text', 'image_url'.` };
      }
    }
    const text = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n\n');
    messages.push({ role, content: text, parts });
  }
  return { messages };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads the target language from a system prompt such as "… into French (fr) …". */
function targetLanguage(messages: RecordedMessage[], fallback: string): string {
  for (const message of messages) {
    const match = /\(([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\)/.exec(message.content);
    if (match?.[1]) return match[1];
  }
  return fallback;
}

function answer(messages: RecordedMessage[], behaviour: FakeOpenAIBehaviour): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  // With parts, the batch is the first text part (images follow it).
  const first = last?.parts?.find((part) => part.type === 'text');
  const user = first?.type === 'text' ? first.text : (last?.content ?? '');
  let payload: { targetLanguage?: string; items?: { id: string; text: string }[] } | undefined;
  try {
    payload = JSON.parse(user);
  } catch {
    payload = undefined;
  }
  const language = payload?.targetLanguage ?? targetLanguage(messages, 'xx');
  if (!payload?.items || !Array.isArray(payload.items)) return behaviour.translate(user, language);
  const items = payload.items
    .filter((item) => !behaviour.dropItem(item.text))
    .map((item) => {
      let text = behaviour.translate(item.text, language);
      if (behaviour.mangleSlot(item.text)) text = text.replace(/\{\{([a-z_0-9]+):(\d+)\}\}/g, '{$1:$2}');
      return { id: item.id, text };
    });
  return JSON.stringify({ items });
}

export async function startFakeOpenAI(changes: Partial<FakeOpenAIBehaviour> = {}): Promise<FakeOpenAI> {
  const behaviour = { ...defaultBehaviour(), ...changes };
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let counter = 0;

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const authorization = req.headers.authorization;
    const record = (status: number, model = '', messages: RecordedRequest['messages'] = []) =>
      requests.push({ authorization, model, messages, status, at: Date.now() });

    if (behaviour.apiKey !== undefined && authorization !== `Bearer ${behaviour.apiKey}`) {
      record(401);
      return sendJson(
        res,
        401,
        apiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'),
      );
    }
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      return sendJson(res, 200, {
        object: 'list',
        data: [{ id: 'fake-model', object: 'model', created: 1_700_000_000, owned_by: 'fake' }],
      });
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
      return sendJson(
        res,
        404,
        apiError(
          `Unknown request URL: ${req.method} ${url.pathname}.`,
          'invalid_request_error',
          'unknown_url',
        ),
      );
    }
    inFlight += 1;
    try {
      let body: { model?: unknown; messages?: unknown; stream?: unknown };
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        record(400);
        return sendJson(
          res,
          400,
          apiError('We could not parse the JSON body of your request.', 'invalid_request_error', null),
        );
      }
      if (typeof body.model !== 'string' || !body.model) {
        record(400);
        return sendJson(
          res,
          400,
          apiError('you must provide a model parameter', 'invalid_request_error', null, 'model'),
        );
      }
      const read = readMessages(body.messages);
      if (!('messages' in read)) {
        record(400, body.model);
        return sendJson(res, 400, apiError(read.message, 'invalid_request_error', null, read.param));
      }
      const { messages } = read;
      if (body.stream === true) {
        record(400, body.model, messages);
        return sendJson(
          res,
          400,
          apiError('This fake does not stream.', 'invalid_request_error', null, 'stream'),
        );
      }
      if (behaviour.textOnly && messages.some((m) => m.parts?.some((part) => part.type === 'image_url'))) {
        record(400, body.model, messages);
        return sendJson(
          res,
          400,
          apiError(
            'Invalid content type. image_url is only supported by certain models.',
            'invalid_request_error',
            null,
            'messages.[1].content.[1].type',
          ),
        );
      }
      if (behaviour.latencyMs > 0) await sleep(behaviour.latencyMs);
      if (behaviour.gate) await behaviour.gate;
      if (behaviour.rateLimitNext > 0) {
        behaviour.rateLimitNext -= 1;
        record(429, body.model, messages);
        return sendJson(
          res,
          429,
          apiError(
            'Rate limit reached for requests. Please try again later.',
            'requests',
            'rate_limit_exceeded',
          ),
          {
            'retry-after': String(Math.ceil(behaviour.retryAfterMs / 1000)),
            'retry-after-ms': String(behaviour.retryAfterMs),
            'x-ratelimit-remaining-requests': '0',
          },
        );
      }
      if (behaviour.serverErrorNext > 0) {
        behaviour.serverErrorNext -= 1;
        record(500, body.model, messages);
        return sendJson(
          res,
          500,
          apiError('The server had an error while processing your request.', 'server_error', null),
        );
      }
      const content = answer(messages, behaviour);
      record(200, body.model, messages);
      counter += 1;
      // Roughly four characters a token, as the real API counts English text; a low-detail image is 85.
      const texts = messages.map(({ role, content }) => ({ role, content }));
      const images = messages.flatMap((m) => m.parts ?? []).filter((part) => part.type === 'image_url');
      const promptTokens = Math.ceil(JSON.stringify(texts).length / 4) + 85 * images.length;
      const completionTokens = Math.ceil(content.length / 4);
      return sendJson(res, 200, {
        id: `chatcmpl-fake${counter}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          { index: 0, message: { role: 'assistant', content }, logprobs: null, finish_reason: 'stop' },
        ],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        },
      });
    } finally {
      inFlight -= 1;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    behaviour,
    set: (more) => Object.assign(behaviour, more),
    inFlight: () => inFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
