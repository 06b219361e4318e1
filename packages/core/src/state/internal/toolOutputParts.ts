import type { UserContent } from '@baton/types';
import { bytesToBase64 } from './bytesToBase64.js';

/**
 * Text, image and file parts a tool may return (the reference's `ToolOutputText`,
 * `ToolOutputImage`, `ToolOutputFileContent`), turned into the input content the reference keeps
 * in history: images and files given as `{ data, mediaType }` become data URLs, `{ url }` a URL,
 * `{ fileId }` / `{ id }` a file reference. Anything else is not a part (the caller makes it text).
 */
export function toInputContent(value: unknown): UserContent | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const part = value as Record<string, unknown>;
  const providerData = isRecord(part.providerData) ? { providerData: part.providerData } : {};
  if (part.type === 'text') return typeof part.text === 'string' ? { type: 'input_text', text: part.text, ...providerData } : undefined;
  if (part.type === 'image') {
    // MCP image content names the type `mimeType`; the reference reads either.
    const mediaType = part.mediaType ?? part.mimeType;
    const image = imageSource(
      part.image ?? (part.data !== undefined ? { data: part.data, mediaType } : part.url !== undefined ? { url: part.url } : part.fileId !== undefined ? { fileId: part.fileId } : undefined),
    );
    if (image === undefined) return undefined;
    return { type: 'input_image', image, ...(typeof part.detail === 'string' ? { detail: part.detail } : {}), ...providerData };
  }
  if (part.type === 'file') {
    const file = fileSource(part.file);
    if (file === undefined) return undefined;
    return { type: 'input_file', file: file.file, ...(file.filename !== undefined ? { filename: file.filename } : {}), ...providerData };
  }
  return undefined;
}

function imageSource(image: unknown): string | { id: string } | undefined {
  if (typeof image === 'string') return image;
  if (!isRecord(image)) return undefined;
  if (image.data !== undefined) return dataUrl(image.data, image.mediaType ?? image.mimeType);
  if (typeof image.url === 'string') return image.url;
  if (typeof image.fileId === 'string') return { id: image.fileId };
  if (typeof image.id === 'string') return { id: image.id };
  return undefined;
}

function fileSource(file: unknown): { file: string | { id: string } | { url: string }; filename?: string } | undefined {
  if (typeof file === 'string') return { file };
  if (!isRecord(file)) return undefined;
  const filename = typeof file.filename === 'string' ? file.filename : undefined;
  const named = <T>(source: T) => (filename === undefined ? { file: source } : { file: source, filename });
  if (file.data !== undefined) {
    const url = dataUrl(file.data, file.mediaType);
    return url === undefined ? undefined : named(url);
  }
  if (typeof file.url === 'string') return named({ url: file.url });
  if (typeof file.id === 'string') return named({ id: file.id });
  return undefined;
}

/**
 * `data:<mediaType>;base64,<data>` from base64 text or bytes; data that is a data URL already stays
 * as it is, and without a media type the base64 text is sent alone (as the reference sends it).
 */
function dataUrl(data: unknown, mediaType: unknown): string | undefined {
  if (typeof data === 'string' && data.startsWith('data:')) return data;
  const base64 = typeof data === 'string' ? data : data instanceof Uint8Array ? bytesToBase64(data) : undefined;
  if (base64 === undefined) return undefined;
  return typeof mediaType === 'string' && mediaType !== '' ? `data:${mediaType};base64,${base64}` : base64;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
