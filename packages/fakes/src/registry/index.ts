export { RegistryFake } from './fake.ts';
export type { RegistryFakeOptions } from './fake.ts';
export type { RegistryAuthOptions } from './auth.ts';
export { MEDIA } from './content.ts';
export type { OciImageConfig, Platform, PlatformImage, RegistryImageSpec } from './content.ts';
