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
