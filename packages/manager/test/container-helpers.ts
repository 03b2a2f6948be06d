import type { SecretBox } from '@app/server-kit';
import type { ManagerClient, TestManager } from './helpers.ts';
import { eventually } from './fleet-helpers.ts';

/** Inserts an external domain directly (its endpoints belong to another issue). */
export async function addDomain(
  test: TestManager,
  values: {
    name: string;
    siteId: number | null;
    authServer?: string | null;
    apiEmail?: string | null;
    apiKey?: string | null;
  },
): Promise<number> {
  const secrets = test.manager.services.ctx.secrets as SecretBox;
  const now = new Date().toISOString();
  const row = await test.manager.database.db
    .insertInto('external_domains')
    .values({
      name: values.name,
      acme_email: null,
      acme_directory_url: null,
      dns_provider_api_email: values.apiEmail ?? null,
      dns_provider_api_key_sealed: values.apiKey ? secrets.seal(values.apiKey) : null,
      site_id: values.siteId,
      auth_server: values.authServer ?? null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Waits for a job to end and returns its status. */
export async function jobEnds(client: ManagerClient, jobId: number): Promise<string> {
  return eventually(async () => {
    const job = await client.get(`/jobs/${jobId}`);
    const status = job.body.data?.status as string | undefined;
    return status && status !== 'pending' && status !== 'running' ? status : undefined;
  }, 20_000);
}
