import type * as acme from 'acme-client';
import type { AcmeStore } from './store.ts';

/** One authorization's challenge of the chosen type, and its answer. */
export interface Answer {
  authorization: acme.Authorization;
  challenge: acme.Authorization['challenges'][number];
  /** HTTP-01: the file's content; DNS-01: the TXT record's value (RFC 8555 §8.3, §8.4). */
  keyAuthorization: string;
}

/** How an order's challenges are answered: published before the ACME server checks, withdrawn after. */
export interface Challenges {
  type: 'http-01' | 'dns-01';
  publish(answers: Answer[]): Promise<void>;
  withdraw(answers: Answer[]): Promise<void>;
}

/** HTTP-01: files in the webroot nginx serves `/.well-known/acme-challenge/` from. */
export const httpChallenges = (store: AcmeStore): Challenges => ({
  type: 'http-01',
  async publish(answers) {
    for (const { challenge, keyAuthorization } of answers)
      await store.saveChallenge(challenge.token, keyAuthorization);
  },
  async withdraw(answers) {
    for (const { challenge } of answers) await store.dropChallenge(challenge.token);
  },
});
