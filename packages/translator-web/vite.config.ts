import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from '@app/web-kit/build/precompress';

// The translator serves dist/ at `/`; `npm run dev -w packages/translator-web` proxies the API to it.
export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 900,
  },
  server: {
    proxy: {
      '/api': process.env.TRANSLATOR_URL ?? 'http://127.0.0.1:3100',
      '/client.js': process.env.TRANSLATOR_URL ?? 'http://127.0.0.1:3100',
    },
  },
});
