export { CloudflareFake } from './fake.ts';
export type { CloudflareFakeOptions } from './fake.ts';
export type { DnsRecord, Zone, CfError } from './records.ts';
