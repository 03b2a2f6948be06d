/** How usage figures read in graphs and tables. */
import { formatBytes } from './common.tsx';

export const percentText = (value: number | null) =>
  value === null ? '—' : `${Math.round(value * 10) / 10} %`;
export const rateText = (value: number | null) => (value === null ? '—' : `${formatBytes(value)}/s`);
export const cpusText = (cores: number | null) => `${Math.round((cores ?? 0) * 100) / 100} CPUs`;
