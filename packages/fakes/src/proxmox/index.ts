export { ProxmoxFake, DEFAULT_TEMPLATE } from './fake.ts';
export type { ProxmoxFakeOptions, AddContainerInit } from './fake.ts';
export type { OciTemplateConfig } from './lxc-create.ts';
export type { PveContainer, PveNode, PveStorage, PveVolume, NodeInit, ConfigValue } from './state.ts';
export type { PveTask, TaskFailure } from './tasks.ts';
export type { SchemaViolation } from './schema/violations.ts';
export { takeReportedViolations } from './schema/violations.ts';
