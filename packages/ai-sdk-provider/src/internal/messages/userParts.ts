import { UserError } from '@baton/types';
import { isObject, targetSpec, type ModelTarget } from './modelTarget.js';
import { providerOptionsFor } from './providerOptions.js';

type Part = Record<string, unknown>;

const FILE_INPUT =
  'An input_file for an AI SDK model must be a base64 data URL, valid non-empty raw base64 data with a PDF filename or providerData.mediaType, or a public HTTP(S) URL with a PDF filename or providerData.mediaType.';
const FILE_ID =
  'OpenAI file IDs are not supported by the AI SDK adapter: an AI SDK model cannot read a file uploaded to OpenAI. Use an OpenAI Responses model directly, or pass the file data or a public HTTP(S) URL.';

/** File data in the target spec's shape: v4 tags it (`{ type: 'data' | 'url' }`), older specs take it raw. */
export function fileData(model: ModelTarget, data: string | URL): unknown {
  if (targetSpec(model) !== 'v4') return data;
  return typeof data === 'string' ? { type: 'data', data } : { type: 'url', url: data };
}

/** A base64 data URL's payload and media type (`data:<type>;base64,<data>`); `undefined` for anything else. */
export function base64DataUrl(source: string, options: { caseInsensitive: boolean } = { caseInsensitive: false }): { data: string; mediaType: string } | undefined {
  const isData = options.caseInsensitive ? /^data:/i.test(source) : source.startsWith('data:');
  const comma = source.indexOf(',');
  if (!isData || comma === -1) return undefined;
  const [mediaType, ...parameters] = source.slice('data:'.length, comma).split(';');
  const type = mediaType?.trim();
  const base64 = options.caseInsensitive ? parameters.some((p) => p.trim().toLowerCase() === 'base64') : source.slice(0, comma).includes('base64');
  if (!type || !base64) return undefined;
  return { data: source.slice(comma + 1), mediaType: type };
}

/** A user message's content as AI SDK parts: text, images and files (`file` parts). */
export function userParts(content: unknown, model: ModelTarget): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw new UserError(`A user message's content must be a string or an array of content parts; received ${typeof content}.`);
  return content.map((part: Part) => {
    const providerOptions = providerOptionsFor(part.providerData, model);
    switch (part.type) {
      case 'input_text':
        return { type: 'text', text: part.text, providerOptions };
      case 'input_image':
        return imagePart(part, model, providerOptions);
      case 'input_file':
        return filePart(part, model);
      default:
        throw new UserError(`Unknown content type in a user message for an AI SDK model: ${JSON.stringify(part.type)}.`);
    }
  });
}

function imagePart(part: Part, model: ModelTarget, providerOptions: Record<string, unknown>): Part {
  const source = typeof part.image === 'string' ? part.image : typeof part.imageUrl === 'string' ? part.imageUrl : undefined;
  if (source === undefined) throw new UserError('Only image URLs are supported for user inputs to an AI SDK model (an input_image needs a URL or a base64 data URL).');
  const inline = base64DataUrl(source);
  if (inline) return { type: 'file', data: fileData(model, inline.data), mediaType: inline.mediaType, providerOptions };
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new UserError(`An input_image for an AI SDK model must be a URL or a base64 data URL; received ${JSON.stringify(source.slice(0, 80))}.`);
  }
  return { type: 'file', data: fileData(model, url), mediaType: 'image/*', providerOptions };
}

function filePart(part: Part, model: ModelTarget): Part {
  const filename = typeof part.filename === 'string' && part.filename !== '' ? part.filename : undefined;
  const providerOptions = providerOptionsFor(part.providerData, model);
  const make = (data: string | URL, mediaType: string): Part => ({ type: 'file', data: fileData(model, data), mediaType, ...(filename ? { filename } : {}), providerOptions });
  const file = part.file;
  if (typeof file === 'string') {
    const inline = base64DataUrl(file, { caseInsensitive: true });
    if (inline) {
      if (!isBase64(inline.data)) throw new UserError(FILE_INPUT);
      return make(inline.data, inline.mediaType);
    }
    if (file.startsWith('data:')) throw new UserError(FILE_INPUT);
    const url = publicUrl(file);
    if (!url && !isBase64(file)) throw new UserError(FILE_INPUT);
    return make(url ?? file, mediaTypeOf(providerOptions, filename, url));
  }
  if (isObject(file)) {
    if (typeof file.id === 'string') throw new UserError(FILE_ID);
    if (typeof file.url === 'string') {
      const url = publicUrl(file.url);
      if (!url) throw new UserError(FILE_INPUT);
      return make(url, mediaTypeOf(providerOptions, filename, url));
    }
  }
  throw new UserError(FILE_INPUT);
}

/** A URL when `source` parses as one (only http(s) is accepted); `undefined` when it is not a URL at all. */
function publicUrl(source: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UserError(FILE_INPUT);
  return url;
}

/** `providerData.mediaType` (for this model), else PDF when the filename or URL path says `.pdf`. */
function mediaTypeOf(providerOptions: Record<string, unknown>, filename: string | undefined, url: URL | undefined): string {
  const explicit = providerOptions.mediaType;
  if (typeof explicit === 'string' && explicit !== '') return explicit;
  if ([filename, url?.pathname].some((name) => name?.toLowerCase().endsWith('.pdf'))) return 'application/pdf';
  throw new UserError(FILE_INPUT);
}

/** Valid, non-empty base64 (whitespace ignored, padding checked). */
function isBase64(value: string): boolean {
  const text = value.replace(/[\t\n\f\r ]/g, '');
  if (text.length === 0 || text.length % 4 === 1 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return false;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  if (padding === 0) return true;
  const dataLength = text.length - padding;
  return text.length % 4 === 0 && ((padding === 1 && dataLength % 4 === 3) || (padding === 2 && dataLength % 4 === 2));
}
