import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The manager serves dist/ at `/`; `npm run dev -w packages/manager-web` proxies the API to it.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 900,
  },
  server: {
    proxy: { '/api': process.env.MANAGER_URL ?? 'http://127.0.0.1:3000' },
  },
});
