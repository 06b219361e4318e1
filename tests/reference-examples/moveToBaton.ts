import { batonImportFor } from './importMap.js';

const importPattern = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\2/g;

/** Rewrites one program's imports with the migration map; returns the @openai modules it could not map. */
export function moveToBaton(source: string): { source: string; unmapped: string[] } {
  const unmapped: string[] = [];
  const moved = source.replace(importPattern, (whole, head: string, quote: string, specifier: string) => {
    if (specifier in batonImportFor) return `${head}${quote}${batonImportFor[specifier]}${quote}`;
    if (specifier.startsWith('@openai/')) unmapped.push(specifier);
    return whole;
  });
  return { source: moved, unmapped };
}
