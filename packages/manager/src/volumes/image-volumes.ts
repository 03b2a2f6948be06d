import type { ImageMetadataService } from '../images/image-metadata.ts';
import { isTemplateVolume } from '../images/image-reference.ts';
import { formatPlatform } from '../images/platform.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import type { NodeConnection } from '../providers/types.ts';
import type { VolumesRepository } from './volumes-repository.ts';
import { volumeOwner } from './volume-owner.ts';
import { MAX_IMAGE_VOLUMES, MAX_MOUNT_PATH_LENGTH, planImageVolumes } from './volume-paths.ts';

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Warnings named one by one for the first few paths, then counted (an image may declare thousands). */
const NAMED_WARNINGS = 5;

async function warnEach(
  log: (line: string) => Promise<void>,
  paths: string[],
  warning: (path: string) => string,
) {
  for (const path of paths.slice(0, NAMED_WARNINGS)) await log(warning(path));
  if (paths.length > NAMED_WARNINGS)
    await log(
      `Warning: ${paths.length - NAMED_WARNINGS} more of the image's volumes were left out for the same reason.`,
    );
}

/**
 * The first step of a create job: one builtin volume per VOLUME path the container's image declares.
 * It runs in the job, not in the request, so a slow registry never holds up `POST …/containers`; when
 * the registry cannot answer, the container gets no volumes and the job output says so. The image read
 * is the one of the container's node's platform (amd64, with a warning, when the node cannot tell).
 */
export class ImageVolumes {
  constructor(
    private readonly images: ImageMetadataService,
    private readonly repo: VolumesRepository,
    private readonly providers: ProviderRegistry,
  ) {}

  async add(
    container: { id: number; template: string },
    node: NodeConnection,
    log: (line: string) => Promise<void>,
  ) {
    // A hypervisor template declares none; a job taken over after a crash keeps the volumes its first
    // run made (their folders may exist).
    if (isTemplateVolume(container.template)) return;
    if ((await this.repo.forContainer(container.id)).length) return;
    const platform = await this.providers.platform(node);
    if (platform.assumed) {
      await log(
        `Warning: node ${node.name} did not tell its architecture (${platform.assumed}); ` +
          `reading the image for linux/${formatPlatform(platform)}.`,
      );
    }
    let paths: string[];
    let user: string | null;
    try {
      ({ paths, user } = await this.images.volumeFacts(container.template, platform));
    } catch (error) {
      await log(
        `Warning: the volumes image ${container.template} declares could not be read (${describe(error)}); the container has none.`,
      );
      return;
    }
    const plan = planImageVolumes(paths);
    await warnEach(
      log,
      plan.skipped,
      (path) =>
        `Warning: the image's volume "${path}" was left out: a mount path must be absolute, without "..", ",", "=" or ":".`,
    );
    await warnEach(
      log,
      plan.tooLong,
      (path) =>
        `Warning: the image's volume "${path.slice(0, 64)}…" was left out: it is longer than ${MAX_MOUNT_PATH_LENGTH} characters.`,
    );
    if (plan.overLimit) {
      await log(
        `Warning: the image declares ${paths.length} volumes; a container gets at most ${MAX_IMAGE_VOLUMES}, ` +
          `so ${plan.overLimit} were left out.`,
      );
    }
    if (!plan.volumes.length) return;
    const owner = volumeOwner(node, user);
    if (owner.note) await log(`Warning: ${owner.note}.`);
    await log(`The volume folders will be owned by host uid ${owner.uid}, gid ${owner.gid}.`);
    await this.repo.insertBuiltin(plan.volumes, container.id, owner);
  }
}
