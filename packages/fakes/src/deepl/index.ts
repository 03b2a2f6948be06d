/**
 * A fake of DeepL's text translation API (`POST /v2/translate`), on real HTTP, from its public
 * documentation: `Authorization: DeepL-Auth-Key <key>` (403 otherwise), a JSON body with `text` (1 to 50
 * strings) and `target_lang` (one of DeepL's target codes, 400 otherwise), and the answer
 * `{"translations":[{"detected_source_language","text"}]}` in order. It "translates" by putting the
 * target code before the text, which it keeps as sent (with `tag_handling: "xml"` DeepL keeps tags and
 * entities too). Failure modes as documented: 429 too many requests, 456 quota exceeded.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../shared/read-body.ts';

/** DeepL's target languages (its documented list). */
export const DEEPL_TARGETS = new Set(
  'AR BG CS DA DE EL EN-GB EN-US ES ET FI FR HU ID IT JA KO LT LV NB NL PL PT-BR PT-PT RO RU SK SL SV TR UK ZH ZH-HANS ZH-HANT'.split(
    ' ',
  ),
);

export interface FakeDeepLBehaviour {
  authKey: string;
  /** The next N requests are answered 429. */
  tooManyNext: number;
  /** Every request is answered 456 (the character quota is used up). */
  quotaExceeded: boolean;
}

export interface DeepLRequest {
  authorization: string | undefined;
  body: { text?: unknown; target_lang?: unknown; tag_handling?: unknown; ignore_tags?: unknown };
  status: number;
}

export interface FakeDeepL {
  /** What TRANSLATOR_DEEPL_BASE_URL takes (without `/v2`). */
  baseUrl: string;
  requests: DeepLRequest[];
  set(changes: Partial<FakeDeepLBehaviour>): void;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startFakeDeepL(changes: Partial<FakeDeepLBehaviour> = {}): Promise<FakeDeepL> {
  const behaviour: FakeDeepLBehaviour = {
    authKey: 'deepl-key:fx',
    tooManyNext: 0,
    quotaExceeded: false,
    ...changes,
  };
  const requests: DeepLRequest[] = [];
  const server = createServer(async (req, res) => {
    const authorization = req.headers.authorization;
    let body: DeepLRequest['body'] = {};
    const answer = (status: number, payload: unknown) => {
      requests.push({ authorization, body, status });
      send(res, status, payload);
    };
    if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://fake').pathname !== '/v2/translate') {
      return answer(404, { message: 'Not found' });
    }
    try {
      body = JSON.parse(await readBody(req)) as DeepLRequest['body'];
    } catch {
      return answer(400, { message: 'Invalid request: expected a JSON body' });
    }
    if (authorization !== `DeepL-Auth-Key ${behaviour.authKey}`) {
      return answer(403, { message: 'Authorization failure, check auth_key' });
    }
    if (behaviour.tooManyNext > 0) {
      behaviour.tooManyNext -= 1;
      return answer(429, { message: 'Too many requests' });
    }
    if (behaviour.quotaExceeded) return answer(456, { message: 'Quota exceeded' });
    const texts = body.text;
    if (
      !Array.isArray(texts) ||
      !texts.length ||
      texts.length > 50 ||
      texts.some((t) => typeof t !== 'string')
    ) {
      return answer(400, { message: "Parameter 'text' must hold 1 to 50 strings." });
    }
    const target = String(body.target_lang ?? '').toUpperCase();
    if (!DEEPL_TARGETS.has(target)) return answer(400, { message: "Value for 'target_lang' not supported." });
    // The "translation" keeps the text as sent (markup, entities and tags included) behind a marker.
    answer(200, {
      translations: (texts as string[]).map((text) => ({
        detected_source_language: 'EN',
        text: `[${target}] ${text}`,
      })),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    set: (more) => Object.assign(behaviour, more),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
