import { defineConfig } from 'tsup';

// `dist` is emptied by the build script first (two configs building in parallel must not clean).
export default defineConfig([
  // The server side and the client decoder (`@baton/streaming/client`), for Node and bundlers.
  {
    entry: ['src/index.ts', 'src/client.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    clean: false,
    sourcemap: true,
    target: 'node20',
  },
  // The client decoder as one self-contained ES module a page can load with <script type="module">
  // (`@baton/streaming/browser`): no imports, no Node built-ins.
  {
    entry: { client: 'src/client.ts' },
    outDir: 'dist/browser',
    format: ['esm'],
    platform: 'browser',
    target: 'es2020',
    splitting: false,
    dts: false,
    clean: false,
    sourcemap: true,
  },
]);
