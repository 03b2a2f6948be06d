#!/usr/bin/env node
// Entry point of the installed CLI: runs the compiled agent (`npm run build` makes dist/).
await import('../dist/cli.js');
