#!/usr/bin/env node
// Entry point of the installed CLI: runs the TypeScript sources through tsx.
import { createRequire } from 'node:module';
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
register(pathToFileURL(require.resolve('tsx/esm')).href, import.meta.url);
await import('../src/cli.ts');
