import * as acme from 'acme-client';
import type { Answer, Challenges } from './challenges.ts';
import type { AcmeStore, PendingOrder } from './store.ts';

/** The order kept from an earlier run, when it can still be finished; else a new one, kept at once. */
async function resumeOrCreate(
  client: acme.Client,
  store: AcmeStore,
  names: string[],
  directoryUrl: string,
): Promise<{ order: acme.Order; pending: PendingOrder }> {
  const host = names[0]!;
  const kept = await store.pendingOrder(host);
  if (kept?.directoryUrl === directoryUrl) {
    const order = await client.getOrder({ url: kept.url } as acme.Order).catch(() => undefined);
    if (order && order.status !== 'invalid') return { order, pending: kept };
  }
  const order = await client.createOrder({
    identifiers: names.map((value) => ({ type: 'dns', value })),
  });
  const pending = {
    url: order.url,
    directoryUrl,
    key: (await acme.crypto.createPrivateEcdsaKey()).toString(),
  };
  await store.savePendingOrder(host, pending);
  return { order, pending };
}

/** The ACME server's reason for refusing a challenge, out of the authorization the library quotes. */
function refusal(error: unknown, type: Challenges['type']): unknown {
  try {
    const authorization = JSON.parse((error as Error).message) as acme.Authorization;
    const problems = authorization.challenges.map(
      (challenge) => challenge.error as { detail?: string } | undefined,
    );
    const detail = problems.find((problem) => problem?.detail)?.detail;
    if (detail) return new Error(`the ACME server refused the ${type.toUpperCase()} challenge: ${detail}`);
  } catch {
    // not the library's JSON: the error as it is
  }
  return error;
}

/**
 * Answers each pending authorization's challenge of the chosen type: every answer published, then each
 * challenge completed and awaited, then every answer withdrawn (also when one is refused).
 */
async function answerChallenges(client: acme.Client, order: acme.Order, challenges: Challenges) {
  const answers: Answer[] = [];
  for (const authorization of await client.getAuthorizations(order)) {
    if (authorization.status === 'valid') continue;
    const challenge = authorization.challenges.find((c) => c.type === challenges.type);
    if (!challenge)
      throw new Error(
        `${authorization.identifier.value}: the ACME server offers no ${challenges.type.toUpperCase()} challenge`,
      );
    answers.push({
      authorization,
      challenge,
      keyAuthorization: await client.getChallengeKeyAuthorization(challenge),
    });
  }
  if (!answers.length) return;
  await challenges.publish(answers);
  try {
    for (const { authorization, challenge } of answers) {
      try {
        if (challenge.status === 'pending') await client.completeChallenge(challenge);
        await client.waitForValidStatus(authorization);
      } catch (error) {
        throw refusal(error, challenges.type);
      }
    }
  } finally {
    await challenges.withdraw(answers);
  }
}

/**
 * Obtains a certificate for `names` (the first names it in the store) and stores it with its key. The
 * order is kept in the store until the certificate is, so a run stopped half-way resumes it (or starts
 * over when the ACME server has given it up).
 */
export async function obtainCertificate(
  client: acme.Client,
  store: AcmeStore,
  names: string[],
  directoryUrl: string,
  challenges: Challenges,
): Promise<string> {
  const host = names[0]!;
  const resumed = await resumeOrCreate(client, store, names, directoryUrl);
  const { pending } = resumed;
  let { order } = resumed;
  try {
    if (order.status === 'pending') {
      await answerChallenges(client, order, challenges);
      order = await client.getOrder(order);
    }
    if (order.status === 'ready') {
      const [, csr] = await acme.crypto.createCsr({ altNames: names }, pending.key);
      order = await client.finalizeOrder(order, csr);
    }
    const fullchain = await client.getCertificate(order);
    await store.saveCertificate(host, fullchain, pending.key);
    await store.dropPendingOrder(host);
    return fullchain;
  } catch (error) {
    // A refused challenge invalidates the order: the next attempt needs a new one.
    if ((await client.getOrder(order).catch(() => order)).status === 'invalid')
      await store.dropPendingOrder(host);
    throw error;
  }
}
