import { beforeEach, describe, expect, it } from 'vitest';
import { PhrasesService } from '../phrases/phrases-service.ts';
import { ProjectsService } from '../projects/projects-service.ts';
import { InMemoryAiJobsRepository } from '../testing/in-memory-ai-jobs-repository.ts';
import { InMemoryPhrasesRepository } from '../testing/in-memory-phrases-repository.ts';
import { InMemoryProjectsRepository } from '../testing/in-memory-projects-repository.ts';
import { InMemoryPromptsRepository } from '../testing/in-memory-prompts-repository.ts';
import { InMemoryTables } from '../testing/in-memory-tables.ts';
import { RecordedChanges, unitContext } from '../testing/unit-context.ts';
import { AiJobsService } from './jobs-service.ts';
import { PromptsService } from './prompts-service.ts';

describe('AiJobsService', () => {
  let jobsRepository: InMemoryAiJobsRepository;
  let projects: ProjectsService;
  let phrases: PhrasesService;
  let prompts: PromptsService;
  let jobs: AiJobsService;
  let projectId: number;
  let phraseIds: number[];
  let woken: number;

  beforeEach(async () => {
    const ctx = unitContext({ TRANSLATOR_AI_BATCH_SIZE: '10', TRANSLATOR_AI_PARALLEL: '2' });
    const tables = new InMemoryTables();
    const phrasesRepository = new InMemoryPhrasesRepository(tables);
    projects = new ProjectsService(ctx, new InMemoryProjectsRepository(tables), new RecordedChanges());
    phrases = new PhrasesService(phrasesRepository, () => {});
    prompts = new PromptsService(new InMemoryPromptsRepository(tables));
    jobsRepository = new InMemoryAiJobsRepository();
    jobs = new AiJobsService(ctx, jobsRepository, projects, phrases, prompts);
    woken = 0;
    jobs.onChange = () => (woken += 1);

    projectId = (await projects.create('Shop')).project.id;
    await projects.updateSettings(projectId, { languages: ['de'], translationProviderApiKey: 'sk-test' });
    await phrases.register(projectId, [{ key: 'one' }, { key: 'two' }], undefined);
    phraseIds = phrasesRepository.ofProject(projectId).map((row) => row.id);
  });

  it('creates a pending job over the distinct phrases and wakes the worker', async () => {
    const created = await jobs.create(projectId, { keyIds: [...phraseIds, phraseIds[0]!], lang: 'de' });
    expect(created.total).toBe(2);
    expect(await jobs.get(projectId, created.jobId)).toMatchObject({
      status: 'pending',
      lang: 'de',
      total: 2,
      completed: 0,
      promptId: null,
    });
    expect(jobsRepository.items.get(created.jobId)).toEqual(phraseIds);
    expect(woken).toBe(1);
  });

  it('refuses a language the project does not have (422 unknown_language)', async () => {
    await expect(jobs.create(projectId, { keyIds: phraseIds, lang: 'fr' })).rejects.toMatchObject({
      statusCode: 422,
      code: 'unknown_language',
      fields: { lang: 'is not configured' },
    });
    expect(jobsRepository.rows).toEqual([]);
  });

  it('refuses to start without a provider key (422 provider_not_configured)', async () => {
    await projects.updateSettings(projectId, { translationProviderApiKey: null });
    await expect(jobs.create(projectId, { keyIds: phraseIds, lang: 'de' })).rejects.toMatchObject({
      statusCode: 422,
      code: 'provider_not_configured',
    });
  });

  it('refuses a prompt the project does not have (422 unknown_prompt)', async () => {
    await expect(
      jobs.create(projectId, { keyIds: phraseIds, lang: 'de', promptId: 'nope' }),
    ).rejects.toMatchObject({
      statusCode: 422,
      code: 'unknown_prompt',
      fields: { prompt_id: 'does not exist' },
    });
  });

  it('names the key ids that are not phrases of the project (422 unknown_phrase)', async () => {
    await expect(
      jobs.create(projectId, { keyIds: [phraseIds[0]!, 998, 999], lang: 'de' }),
    ).rejects.toMatchObject({
      statusCode: 422,
      code: 'unknown_phrase',
      fields: { key_ids: 'unknown: 998, 999' },
    });
  });

  it('cancels a waiting job once: its items go, a second cancel is 409 job_finished', async () => {
    const { jobId } = await jobs.create(projectId, { keyIds: phraseIds, lang: 'de' });
    expect(await jobs.cancel(projectId, jobId)).toMatchObject({ status: 'cancelled' });
    expect(jobsRepository.items.has(jobId)).toBe(false);
    expect(woken).toBe(2);
    await expect(jobs.cancel(projectId, jobId)).rejects.toMatchObject({
      statusCode: 409,
      code: 'job_finished',
      message: 'The job is already cancelled.',
    });
  });

  it('does not show or cancel the job of another project', async () => {
    const { jobId } = await jobs.create(projectId, { keyIds: phraseIds, lang: 'de' });
    await expect(jobs.get(projectId + 1, jobId)).rejects.toMatchObject({ statusCode: 404 });
    await expect(jobs.cancel(projectId + 1, jobId)).rejects.toMatchObject({ statusCode: 404 });
    expect((await jobs.get(projectId, jobId)).status).toBe('pending');
  });

  it('estimates the time left from the measured rate, or one second per round of batches before that', async () => {
    const { jobId } = await jobs.create(projectId, { keyIds: phraseIds, lang: 'de' });
    const row = jobsRepository.rows.find((candidate) => candidate.id === jobId)!;
    Object.assign(row, { total: 100, status: 'running' });
    expect((await jobs.get(projectId, jobId)).estimatedTimeRemaining).toBe(5);
    Object.assign(row, { completed: 40, failed: 10, run_ms: 10_000 });
    expect((await jobs.get(projectId, jobId)).estimatedTimeRemaining).toBe(10);
    Object.assign(row, { status: 'completed' });
    expect((await jobs.get(projectId, jobId)).estimatedTimeRemaining).toBe(0);
  });

  it('separates the active jobs from the log of finished ones', async () => {
    const first = await jobs.create(projectId, { keyIds: phraseIds, lang: 'de' });
    const second = await jobs.create(projectId, { keyIds: phraseIds, lang: 'de' });
    jobsRepository.rows.find((row) => row.id === second.jobId)!.status = 'running';
    await jobs.cancel(projectId, first.jobId);
    const active = await jobs.active(projectId);
    expect(active.stats).toEqual({ running: 1, pending: 0, total: 1 });
    expect((await jobs.log(projectId)).map((job) => job.id)).toEqual([first.jobId]);
  });
});
