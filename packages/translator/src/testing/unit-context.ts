import { envReader, SecretBox } from '@app/server-kit';
import type { ChangeFeed, ChangeKind } from '../changes.ts';
import type { Authorship } from '../translations/translation-writes-repository.ts';
import { readTranslatorConfig, type TranslatorConfig } from '../config.ts';
import { TranslatorMetrics } from '../observability/metrics.ts';

/**
 * What a service gets of the translator's context besides the database: the configuration of a
 * deployment with only `env` set, its secrets and its metrics.
 */
export function unitContext(env: Record<string, string> = {}): {
  config: TranslatorConfig;
  secrets: SecretBox;
  metrics: TranslatorMetrics;
} {
  const secretKey = 'unit-spec-secret';
  return {
    config: readTranslatorConfig(envReader({ SECRET_KEY: secretKey, ...env })),
    secrets: new SecretBox(secretKey),
    metrics: new TranslatorMetrics(),
  };
}

/** The changes of one process: handlers run at once, as ProjectChanges runs them; every notice is kept. */
export class RecordedChanges implements ChangeFeed {
  readonly announced: [ChangeKind, number][] = [];
  private readonly handlers: Record<ChangeKind, ((projectId: number | undefined) => void)[]> = {
    keys: [],
    data: [],
  };

  on(kind: ChangeKind, handler: (projectId: number | undefined) => void) {
    this.handlers[kind].push(handler);
  }

  async announce(kind: ChangeKind, projectId: number): Promise<void> {
    this.announced.push([kind, projectId]);
    for (const handler of this.handlers[kind]) handler(projectId);
  }
}

/** A person's save through the project key. */
export const PERSON: Authorship = { state: 'human', source: 'human', actor: 'key:unit' };
