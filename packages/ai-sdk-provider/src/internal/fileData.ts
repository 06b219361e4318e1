import { UserError } from '@baton/types';
import type { AiSdkSpecificationVersion } from '../languageModel.js';

/** Where a file's bytes are: inline (base64), at a URL, or stored by the provider (a file id). */
export type FileSource =
  | { readonly kind: 'data'; readonly data: string; readonly mediaType?: string | undefined }
  | { readonly kind: 'url'; readonly url: URL }
  | { readonly kind: 'reference'; readonly id: string };

const EXTENSIONS: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
  json: 'application/json',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
};

/**
 * Reads an image or file reference as protocol items carry it: a base64 data URL, an http(s) URL,
 * raw base64 (files only), `{ id }` (a provider file id) or `{ url }`.
 */
export function fileSourceOf(value: unknown, what: string, allowRawBase64: boolean): FileSource {
  if (typeof value === 'string') {
    if (/^data:/i.test(value)) return dataUrl(value, what);
    const url = httpUrl(value);
    if (url !== undefined) return { kind: 'url', url };
    if (allowRawBase64 && /^[A-Za-z0-9+/\s]+={0,2}$/.test(value) && value.trim() !== '') return { kind: 'data', data: value.replace(/\s/g, '') };
    throw new UserError(`${what}: expected a base64 data URL, an http(s) URL or { id }, got ${JSON.stringify(value.slice(0, 60))}.`);
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record.id === 'string' && record.id !== '') return { kind: 'reference', id: record.id };
    if (typeof record.url === 'string') {
      const url = httpUrl(record.url);
      if (url !== undefined) return { kind: 'url', url };
    }
  }
  throw new UserError(`${what}: expected a base64 data URL, an http(s) URL or { id }, got ${JSON.stringify(value)}.`);
}

/**
 * The media type of a file: the data URL's, else `providerData.mediaType`, else the file name's (or
 * the URL path's) extension. Images may fall back to the bare top-level type (`image`; `image/*`
 * for v3), which providers resolve themselves.
 */
export function mediaTypeOf(source: FileSource, options: { explicit?: unknown; filename?: string | undefined; image: boolean; spec: AiSdkSpecificationVersion; what: string }): string {
  if (source.kind === 'data' && source.mediaType !== undefined) return source.mediaType;
  if (typeof options.explicit === 'string' && options.explicit !== '') return options.explicit;
  for (const name of [options.filename, source.kind === 'url' ? source.url.pathname : undefined]) {
    const extension = name?.split('.').pop()?.toLowerCase();
    if (name?.includes('.') && extension !== undefined && EXTENSIONS[extension] !== undefined) return EXTENSIONS[extension];
  }
  if (options.image) return options.spec === 'v4' ? 'image' : 'image/*';
  throw new UserError(
    `${options.what}: cannot tell the file's media type; use a data URL, a file name with a known extension, or set providerData.mediaType.`,
  );
}

/** The key a provider file id is stored under in a v4 `reference` (`openai.responses` → `openai`). */
export function referenceKey(provider: string): string {
  return provider.split('.')[0] || provider;
}

function dataUrl(value: string, what: string): FileSource {
  const comma = value.indexOf(',');
  const meta = comma === -1 ? '' : value.slice('data:'.length, comma);
  const [mediaType, ...parameters] = meta.split(';');
  if (comma === -1 || !parameters.some((p) => p.trim().toLowerCase() === 'base64')) {
    throw new UserError(`${what}: only base64 data URLs are supported (data:<media type>;base64,<data>).`);
  }
  const type = mediaType?.trim();
  return { kind: 'data', data: value.slice(comma + 1), ...(type ? { mediaType: type } : {}) };
}

function httpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}
