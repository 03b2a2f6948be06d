import type { ImageMetadataService } from '../images/image-metadata.ts';
import type { VolumesRepository } from './volumes-repository.ts';
import { planImageVolumes } from './volume-paths.ts';

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The first step of a create job: one builtin volume per VOLUME path the container's image declares.
 * It runs in the job, not in the request, so a slow registry never holds up `POST …/containers`; when
 * the registry cannot answer, the container gets no volumes and the job output says so.
 */
export class ImageVolumes {
  constructor(
    private readonly images: ImageMetadataService,
    private readonly repo: VolumesRepository,
  ) {}

  async add(container: { id: number; template: string }, log: (line: string) => Promise<void>) {
    // A job taken over after a crash keeps the volumes its first run made (their folders may exist).
    if ((await this.repo.forContainer(container.id)).length) return;
    let paths: string[];
    try {
      paths = await this.images.declaredVolumes(container.template);
    } catch (error) {
      await log(
        `Warning: the volumes image ${container.template} declares could not be read (${describe(error)}); the container has none.`,
      );
      return;
    }
    const { volumes, skipped } = planImageVolumes(paths);
    for (const path of skipped) {
      await log(
        `Warning: the image's volume "${path}" was left out: a mount path must be absolute, without "..", ",", "=" or ":".`,
      );
    }
    await this.repo.insertBuiltin(volumes, container.id);
  }
}
