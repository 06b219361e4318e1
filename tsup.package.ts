import { defineConfig, type Options } from 'tsup';

/** How every package builds: ESM and CJS with .d.ts, for Node 20. A package passes its entries. */
export function packageConfig(entry: string[] = ['src/index.ts'], overrides: Options = {}) {
  return defineConfig({ entry, format: ['esm', 'cjs'], dts: true, clean: true, sourcemap: true, target: 'node20', ...overrides });
}
