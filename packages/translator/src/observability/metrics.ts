import { Counter, Histogram } from 'prom-client';
import { ServiceMetrics } from '@app/server-kit';

/** How one call to the AI provider went. */
export type AiCallOutcome = 'ok' | 'retryable_error' | 'refused' | 'unreadable' | 'unreachable';

/** What the AI provider code reports (ChatProvider). */
export interface AiCallRecorder {
  aiCall(outcome: AiCallOutcome, usage?: { promptTokens: number; completionTokens: number }): void;
  aiPhrases(translated: number, rejected: number): void;
}

/**
 * The translator's metrics beside the HTTP ones: AI job durations and the AI job queue, the cost of AI
 * work (provider calls, tokens the provider reported, phrases translated or rejected), and the delivery
 * cache (see ServiceMetrics.cache).
 */
export class TranslatorMetrics extends ServiceMetrics implements AiCallRecorder {
  private readonly registers = [this.registry];
  private readonly jobDuration = new Histogram({
    name: 'translator_ai_job_duration_seconds',
    help: 'Run time of an AI translation job, by final status.',
    labelNames: ['status'] as const,
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
    registers: this.registers,
  });
  private readonly calls = new Counter({
    name: 'translator_ai_calls_total',
    help: 'Calls to the AI provider, by outcome.',
    labelNames: ['outcome'] as const,
    registers: this.registers,
  });
  private readonly tokens = new Counter({
    name: 'translator_ai_tokens_total',
    help: 'Tokens the AI provider reported using, by kind (prompt or completion).',
    labelNames: ['kind'] as const,
    registers: this.registers,
  });
  private readonly phrases = new Counter({
    name: 'translator_ai_phrases_total',
    help: 'Phrases sent to the AI provider, by result (translated or rejected).',
    labelNames: ['result'] as const,
    registers: this.registers,
  });

  aiJobFinished(status: 'completed' | 'failed', seconds: number) {
    this.jobDuration.labels(status).observe(seconds);
  }

  aiCall(outcome: AiCallOutcome, usage?: { promptTokens: number; completionTokens: number }) {
    this.calls.labels(outcome).inc();
    if (!usage) return;
    this.tokens.labels('prompt').inc(usage.promptTokens);
    this.tokens.labels('completion').inc(usage.completionTokens);
  }

  aiPhrases(translated: number, rejected: number) {
    this.phrases.labels('translated').inc(translated);
    this.phrases.labels('rejected').inc(rejected);
  }

  /** The AI job queue, read at scrape time (empty while the database is out of reach). */
  watchQueue(activeJobs: () => Promise<{ status: string; count: number }[]>) {
    this.scrapedGauge(
      {
        name: 'translator_ai_jobs',
        help: 'AI jobs waiting (pending) and running: the queue depth.',
        labelNames: ['status'],
      },
      async () => (await activeJobs()).map((row) => ({ labels: { status: row.status }, value: row.count })),
    );
  }
}
