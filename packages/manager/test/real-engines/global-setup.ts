import type { TestProject } from 'vitest/node';
import { buildAndPush, pushIndex } from './test-image.ts';
import { dockerEngine, DOCKER_SOCKET, localRegistry, podmanService, type Undo } from './services.ts';

export interface RealEngines {
  engines: Array<{ name: 'docker' | 'podman'; socket: string }>;
  registry: string;
  image: string;
  /** `image` run as the non-root TEST_IMAGE.user. */
  nonRootImage: string;
  /** A multi-platform index of `image` (amd64) and an arm64 variant. */
  index: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    realEngines: RealEngines;
  }
}

/**
 * Real Docker Engine, real Podman and a real registry for the real-engine tests: starts what is not
 * running, pushes the test image, and at the end stops only what it started.
 */
export default async function setup(project: TestProject) {
  const undo: Undo[] = [];
  const teardown = async () => {
    for (const step of undo.reverse()) await step();
  };
  try {
    await dockerEngine(undo);
    const registry = await localRegistry(undo);
    const podmanSocket = await podmanService(undo);
    const image = `${registry}/fleet-test/app:1`;
    buildAndPush(image);
    const nonRootImage = `${registry}/fleet-test/app-user:1`;
    buildAndPush(nonRootImage, {}, true, true);
    const index = `${registry}/fleet-test/multi:1`;
    pushIndex(index, image);
    project.provide('realEngines', {
      engines: [
        { name: 'docker', socket: DOCKER_SOCKET },
        { name: 'podman', socket: podmanSocket },
      ],
      registry,
      image,
      nonRootImage,
      index,
    });
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
