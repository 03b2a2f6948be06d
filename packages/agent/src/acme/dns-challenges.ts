import { setTimeout as sleep } from 'node:timers/promises';
import { managerAuthorization, type AgentConfig } from '../config.ts';
import { managerMessage } from '../manager-error.ts';
import type { Challenges } from './challenges.ts';

type ManagerAccess = Pick<
  AgentConfig,
  'managerUrl' | 'agentToken' | 'apiKey' | 'siteId' | 'requestTimeoutMs'
>;

/** Asks the manager to make the domain's `_acme-challenge` TXT records exactly `values`. */
async function setRecords(config: ManagerAccess, domain: string, values: string[]) {
  const response = await fetch(`${config.managerUrl}/api/v1/agents/acme-challenges`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...managerAuthorization(config) },
    body: JSON.stringify({ siteId: config.siteId, domain, values }),
    signal: AbortSignal.timeout(config.requestTimeoutMs),
  });
  if (response.status === 204) return;
  const message = managerMessage(await response.text());
  throw new Error(`the manager could not set the DNS-01 records (${response.status}): ${message}`);
}

/**
 * DNS-01 through the manager, which holds the domain's DNS provider key: the TXT records are set, given
 * `propagationMs` to reach the provider's name servers, and removed once the order is answered.
 */
export const dnsChallenges = (config: ManagerAccess, domain: string, propagationMs: number): Challenges => ({
  type: 'dns-01',
  async publish(answers) {
    await setRecords(
      config,
      domain,
      answers.map((answer) => answer.keyAuthorization),
    );
    await sleep(propagationMs);
  },
  async withdraw() {
    await setRecords(config, domain, []);
  },
});
