import type { Plugin } from 'vite';

/** Writes `.br` and `.gz` beside every compressible file of a Vite build. */
export function precompress(): Plugin;
