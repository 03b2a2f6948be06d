export { DockerFake } from './fake.ts';
export type { DockerFakeOptions } from './fake.ts';
export type { DockerImage, ImageConfig, ImageSpec } from './images.ts';
export type { DockerContainer, ContainerStatus } from './containers.ts';
export { SIMULATED as DOCKER_SIMULATED_USAGE } from './stats-routes.ts';
