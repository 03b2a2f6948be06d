/**
 * A fake of the OpenAI chat-completions API (`POST /v1/chat/completions`, `GET /v1/models`), on real
 * HTTP, for tests and demos of the translator's AI jobs. It cannot translate, so it "translates" the
 * items of the translator's batch format (a user message holding `{"items":[{"id","text"}]}`) with a
 * visible marker, keeping slot tokens; anything else gets a short echo. Its failure modes are the ones
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
}

export interface RecordedRequest {
  authorization: string | undefined;
  model: string;
  messages: { role: string; content: string }[];
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads the target language from a system prompt such as "… into French (fr) …". */
function targetLanguage(messages: { role: string; content: string }[], fallback: string): string {
  for (const message of messages) {
    const match = /\(([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\)/.exec(message.content);
    if (match?.[1]) return match[1];
  }
  return fallback;
}

function answer(messages: { role: string; content: string }[], behaviour: FakeOpenAIBehaviour): string {
  const user = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
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
      const messages = body.messages;
      if (
        !Array.isArray(messages) ||
        messages.length === 0 ||
        messages.some((m) => typeof m?.content !== 'string')
      ) {
        record(400, body.model);
        return sendJson(
          res,
          400,
          apiError(
            "Invalid 'messages': expected a non-empty array.",
            'invalid_request_error',
            null,
            'messages',
          ),
        );
      }
      if (body.stream === true) {
        record(400, body.model, messages);
        return sendJson(
          res,
          400,
          apiError('This fake does not stream.', 'invalid_request_error', null, 'stream'),
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
      const content = answer(messages as RecordedRequest['messages'], behaviour);
      record(200, body.model, messages);
      counter += 1;
      // Roughly four characters a token, as the real API counts English text.
      const promptTokens = Math.ceil(JSON.stringify(messages).length / 4);
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
