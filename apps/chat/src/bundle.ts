import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const clientDir = join(dirname(fileURLToPath(import.meta.url)), 'client');

/** The page's script and styles, bundled by esbuild in memory (React, `@ai-sdk/react` and the app). */
export interface ClientBundle {
  readonly js: string;
  readonly css: string;
}

export async function bundleClient(options: { minify?: boolean } = {}): Promise<ClientBundle> {
  const result = await build({
    entryPoints: [join(clientDir, 'main.tsx')],
    bundle: true,
    write: false,
    outdir: 'out',
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    minify: options.minify ?? true,
    sourcemap: false,
    define: { 'process.env.NODE_ENV': JSON.stringify(options.minify === false ? 'development' : 'production') },
    logLevel: 'silent',
  });
  const file = (extension: string) => result.outputFiles.find((output) => output.path.endsWith(extension))?.text ?? '';
  return { js: file('.js'), css: file('.css') };
}
