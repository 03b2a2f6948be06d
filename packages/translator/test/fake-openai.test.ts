import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '@app/fakes/openai';

interface Completion {
  object: string;
  choices: { message: { content: string } }[];
}
interface ApiError {
  error: { code: string | null; type: string };
}

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: 'sk-fake' });
});
afterAll(async () => fake?.close());

const call = (body: unknown, key = 'sk-fake') =>
  fetch(`${fake.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('fake OpenAI chat-completions server', () => {
  it('answers a chat completion in the API’s shape, translating batch items and keeping slot tokens', async () => {
    const res = await call({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'Translate into French (fr).' },
        {
          role: 'user',
          content: JSON.stringify({ targetLanguage: 'fr', items: [{ id: '1', text: 'Hi {{number:0}}' }] }),
        },
      ],
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Completion;
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-test',
      choices: [{ index: 0, message: { role: 'assistant' }, finish_reason: 'stop' }],
      usage: expect.any(Object),
    });
    expect(JSON.parse(body.choices[0]!.message.content)).toEqual({
      items: [{ id: '1', text: '[fr] Hi {{number:0}}' }],
    });
  });

  it('takes content as parts, text and images, as the real API does, and keeps them', async () => {
    fake.requests.length = 0;
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const batch = JSON.stringify({ targetLanguage: 'de', items: [{ id: '7', text: 'Cart', screenshot: 1 }] });
    const res = await call({
      model: 'm',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Translate into German (de).' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: batch },
            { type: 'image_url', image_url: { url: png, detail: 'low' } },
          ],
        },
      ],
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Completion;
    expect(JSON.parse(body.choices[0]!.message.content)).toEqual({ items: [{ id: '7', text: '[de] Cart' }] });
    const user = fake.requests.at(-1)!.messages.find((message) => message.role === 'user')!;
    expect(user.content).toBe(batch);
    expect(user.parts).toEqual([
      { type: 'text', text: batch },
      { type: 'image_url', image_url: { url: png, detail: 'low' } },
    ]);

    const parts = (content: unknown, role = 'user') => call({ model: 'm', messages: [{ role, content }] });
    const param = async (res: Response) => ((await res.json()) as { error: { param: string } }).error.param;
    const notImage = await parts([{ type: 'image_url', image_url: { url: 'data:text/plain;base64,eA==' } }]);
    expect(notImage.status).toBe(400);
    expect(await param(notImage)).toBe('messages[0].content[0].image_url.url');
    const plainHttp = await parts([{ type: 'image_url', image_url: { url: 'http://example.test/a.png' } }]);
    expect(plainHttp.status).toBe(400);
    const inSystem = await parts([{ type: 'image_url', image_url: { url: png } }], 'system');
    expect(inSystem.status).toBe(400);
    expect((await parts([{ type: 'audio', audio: {} }])).status).toBe(400);
    expect((await parts([])).status).toBe(400);
  });

  it('answers errors the way the real API does', async () => {
    const wrongKey = await call({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, 'sk-wrong');
    expect(wrongKey.status).toBe(401);
    expect(((await wrongKey.json()) as ApiError).error).toMatchObject({
      code: 'invalid_api_key',
      type: 'invalid_request_error',
    });
    expect((await call({ messages: [{ role: 'user', content: 'x' }] })).status).toBe(400);
    expect((await call({ model: 'm', messages: [] })).status).toBe(400);
    expect((await call('{not json')).status).toBe(400);
    const unknown = await fetch(`${fake.baseUrl}/nothing`, { headers: { authorization: 'Bearer sk-fake' } });
    expect(unknown.status).toBe(404);
    const models = await fetch(`${fake.baseUrl}/models`, { headers: { authorization: 'Bearer sk-fake' } });
    expect(((await models.json()) as { object: string }).object).toBe('list');
  });

  it('can rate-limit with Retry-After, fail with 500, drop and mangle items, and be slow', async () => {
    fake.set({ rateLimitNext: 1, retryAfterMs: 1500, serverErrorNext: 1, latencyMs: 100 });
    const message = {
      model: 'm',
      messages: [
        {
          role: 'user',
          content: JSON.stringify({
            targetLanguage: 'de',
            items: [
              { id: 'a', text: 'keep {{text:0}}' },
              { id: 'b', text: 'drop me' },
              { id: 'c', text: 'mangle {{number:0}}' },
            ],
          }),
        },
      ],
    };
    const limited = await call(message);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(limited.headers.get('retry-after-ms')).toBe('1500');
    expect(((await limited.json()) as ApiError).error.code).toBe('rate_limit_exceeded');
    expect((await call(message)).status).toBe(500);
    fake.set({ dropItem: (text) => text === 'drop me', mangleSlot: (text) => text.startsWith('mangle') });
    const started = Date.now();
    const ok = await call(message);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    const content = JSON.parse(((await ok.json()) as Completion).choices[0]!.message.content);
    expect(content.items).toEqual([
      { id: 'a', text: '[de] keep {{text:0}}' },
      { id: 'c', text: '[de] mangle {number:0}' },
    ]);
    expect(fake.requests.map((r) => r.status).slice(-3)).toEqual([429, 500, 200]);
  });
});
