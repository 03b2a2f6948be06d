/**
 * Translation memory benchmarks: prints figures, asserts nothing.
 *
 *   npx tsx packages/translator/bench/memory.ts                                  # SQLite
 *   TEST_DATABASE_URL=postgres://… npx tsx packages/translator/bench/memory.ts   # + PostgreSQL
 *
 * 1. Fuzzy lookup of a sentence among 100,000 remembered translations (goal p99 < 20 ms): the first lookup
 *    (which builds the project's index), then 1,000 lookups of stored sentences with one word changed,
 *    through GET /api/translations/memory.
 * 2. Pre-translation: an AI job of 2,000 phrases the memory knows, against a fake provider answering each
 *    call after 100 ms (so any call it still made would show).
 */
import { performance } from 'node:perf_hooks';
import { sha256Hex } from '@app/server-kit';
import type { TestDatabase } from '@app/server-kit/testing';
import { startFakeOpenAI } from '@app/fakes/openai';
import { buildTranslator } from '../src/app.ts';
import { api, benchConfig, finishedJob, seedPhrases, withDatabase, word } from './fixtures/setup.ts';

const ENTRIES = 100_000;
const LOOKUPS = 1000;
const JOB = 2000;

const COMMON = (
  'the a to of and in for your with on this that is you it be are we can from at by as our not all ' +
  'new more now order item cart price free shipping account sign save view add page product'
).split(' ');

/** A deterministic pseudo-random sequence (an LCG), so each run stores the same sentences. */
function randoms(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % below;
  };
}

/** Sentences of 6 to 12 words, most of them common ones, a few from a vocabulary of 20,000 rarer words. */
function sentences(count: number): string[] {
  const next = randoms(7);
  return Array.from({ length: count }, (_, i) => {
    const words = Array.from({ length: 6 + next(7) }, () =>
      next(4) ? COMMON[next(COMMON.length)]! : `${word(next(20_000))}er`,
    );
    // Each sentence distinct, as memory sources are.
    words.push(`${word(i)}s`);
    return words.join(' ').replace(/^./, (first) => first.toUpperCase());
  });
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const ms = (value: number) => `${value.toFixed(2)} ms`;

async function memoryBench(database: TestDatabase, label: string) {
  const fake = await startFakeOpenAI({ latencyMs: 100 });
  const translator = await buildTranslator(benchConfig(database, { baseUrl: fake.baseUrl }));
  const url = await translator.listen();
  const { id: projectId, api_key: key } = translator.defaultProject.project;
  await api(url, key, 'PATCH', '/api/project/settings', {
    settings: { languages: ['fr'], translationProviderApiKey: 'sk-bench' },
  });
  const texts = sentences(ENTRIES);
  const now = new Date().toISOString();
  for (let start = 0; start < ENTRIES; start += 1000) {
    await translator.ctx.db
      .insertInto('translation_memory')
      .values(
        texts.slice(start, start + 1000).map((source) => ({
          project_id: projectId,
          lang: 'fr',
          source,
          source_hash: sha256Hex(source),
          value: `FR ${source}`,
          state: 'reviewed' as const,
          updated_at: now,
        })),
      )
      .execute();
  }

  const lookup = async (text: string) => {
    const started = performance.now();
    const answer = await api(
      url,
      key,
      'GET',
      `/api/translations/memory?lang=fr&text=${encodeURIComponent(text)}`,
    );
    return { took: performance.now() - started, matches: answer.matches as { score: number }[] };
  };
  // Heap and array buffers (the index's lists live in the latter).
  const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const before = used();
  const first = await lookup('Add the new item to your cart');
  const indexMb = (used() - before) / 2 ** 20;
  const next = randoms(11);
  const times: number[] = [];
  let found = 0;
  for (let i = 0; i < LOOKUPS; i++) {
    const words = texts[next(ENTRIES)]!.split(' ');
    words[next(words.length - 1)] = 'changed';
    const { took, matches } = await lookup(words.join(' '));
    times.push(took);
    if (matches.length && matches[0]!.score < 100) found++;
  }
  times.sort((a, b) => a - b);
  console.log(
    `   ${label.padEnd(10)} first lookup (builds the index) ${ms(first.took)}; ${LOOKUPS} lookups: ` +
      `p50 ${ms(quantile(times, 0.5))}, p99 ${ms(quantile(times, 0.99))}, max ${ms(times.at(-1)!)}; ` +
      `${found} found their sentence as a fuzzy match; the index took about ${Math.round(indexMb)} MB (heap and array buffers)`,
  );

  const approved = await seedPhrases(url, key, JOB, 'fr', (i) => texts[i]!);
  const started = performance.now();
  const { jobId } = await api(url, key, 'POST', '/api/ai-jobs', { key_ids: approved, lang: 'fr' });
  const job = await finishedJob(url, key, jobId);
  console.log(
    `   ${label.padEnd(10)} AI job of ${approved.length} phrases: ${job.status} in ${ms(performance.now() - started)}, ` +
      `${job.memory.filled} filled from memory (${job.memory.savedCharacters.toLocaleString('en-US')} characters not sent), ` +
      `${fake.requests.length} provider calls`,
  );
  await translator.close();
  await fake.close();
}

console.log(`Translation memory benchmarks — Node ${process.version}`);
console.log(`\n${ENTRIES.toLocaleString('en-US')} remembered translations; lookups over HTTP, one at a time`);
await withDatabase((db) => memoryBench(db, 'SQLite'));
if (process.env.TEST_DATABASE_URL) await withDatabase((db) => memoryBench(db, 'PostgreSQL'), true);
else console.log('   PostgreSQL: skipped (set TEST_DATABASE_URL)');
