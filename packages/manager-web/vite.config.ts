import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from '@app/web-kit/build/precompress';

const stylesList = fileURLToPath(new URL('./src/styles.ts', import.meta.url));
const mantineDir = dirname(createRequire(import.meta.url).resolve('@mantine/core/styles.css'));

/**
 * src/styles.ts imports Mantine's styles per component: the build fails when the bundle holds a Mantine
 * component (its `*.module.mjs` class names) whose styles are not imported there, or when they are not in
 * the order of @mantine/core/styles.css (rules of equal weight: the later one wins).
 */
function mantineStyles(): Plugin {
  return {
    name: 'mantine-styles',
    apply: 'build',
    generateBundle(_options, bundle) {
      const bundled = new Set<string>();
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const id of Object.keys(chunk.modules)) {
          const name = /@mantine[\\/]core[\\/]esm[\\/].*[\\/]([^\\/]+)\.module\.mjs$/.exec(id)?.[1];
          if (name) bundled.add(name);
        }
      }
      const listed = [
        ...readFileSync(stylesList, 'utf8').matchAll(/'@mantine\/core\/styles\/([^']+)\.css'/g),
      ].map((match) => match[1]!);
      const missing = [...bundled].filter((name) => !listed.includes(name));
      if (missing.length)
        this.error(
          `src/styles.ts does not import the styles of ${missing.join(', ')}: add '@mantine/core/styles/<name>.css' ` +
            'for each, in the order of @mantine/core/styles.css',
        );
      const all = readFileSync(join(mantineDir, 'styles.css'), 'utf8');
      const at = listed.map((name) =>
        all.indexOf(readFileSync(join(mantineDir, 'styles', `${name}.css`), 'utf8').trim()),
      );
      const misplaced = listed.find((_name, index) => at[index]! < (index ? at[index - 1]! : 0));
      if (misplaced !== undefined)
        this.error(`src/styles.ts: ${misplaced}.css is out of the order of @mantine/core/styles.css`);
    },
  };
}

// The manager serves dist/ at `/`; `npm run dev -w packages/manager-web` proxies the API to it.
export default defineConfig({
  plugins: [react(), mantineStyles(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 900,
  },
  server: {
    // ws: the container terminal's WebSocket goes through too.
    proxy: { '/api': { target: process.env.MANAGER_URL ?? 'http://127.0.0.1:3000', ws: true } },
  },
});
