import type { ImageMetadataService } from '../images/image-metadata.ts';
import { planImageVolumes, type PlannedVolume } from './volume-paths.ts';

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The builtin volumes of a new container: one per VOLUME path its image declares. The registry is
 * asked before the create transaction; when it cannot answer, the container is created without
 * volumes and the warning goes into its create job's output (creating never depended on the registry).
 */
export async function imageVolumes(
  images: ImageMetadataService,
  image: string,
): Promise<{ volumes: PlannedVolume[]; warnings: string[] }> {
  let paths: string[];
  try {
    paths = await images.declaredVolumes(image);
  } catch (error) {
    return {
      volumes: [],
      warnings: [
        `the volumes image ${image} declares could not be read (${describe(error)}); the container has none.`,
      ],
    };
  }
  const { volumes, skipped } = planImageVolumes(paths);
  return {
    volumes,
    warnings: skipped.map(
      (path) =>
        `the image's volume "${path}" was left out: a mount path must be absolute, without "..", ",", "=" or ":".`,
    ),
  };
}
