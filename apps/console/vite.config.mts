import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));

// The console is served by the gateway under /console from dist/console (libs/gateway/src/console): static files
// only, nothing fetched from another origin at run time (the CSP allows 'self' alone).
export default defineConfig({
  root,
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/console', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: false,
    chunkSizeWarningLimit: 1024,
  },
});
