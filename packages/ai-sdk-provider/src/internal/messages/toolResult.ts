import { isObject, targetSpec, type ModelTarget } from './modelTarget.js';
import { base64DataUrl } from './userParts.js';

type Piece = Record<string, unknown>;

/**
 * A function tool's output as the AI SDK's tool-result `output`: a string is `text`; a list of
 * content parts (or a single image / file output) is `text` when it has no image, else `content`
 * with the text first and the images in the target spec's shape (v4 `file`, v3 `image-data` /
 * `image-url` / `image-file-id`, v2 `media`). Files in tool output cannot be sent (a note stands in).
 */
export function toolResultOutput(output: unknown, model: ModelTarget): Record<string, unknown> {
  if (typeof output === 'string') return { type: 'text', value: output };
  if (Array.isArray(output)) return structuredOutput(output as Piece[], model);
  if (isObject(output) && typeof output.type === 'string') {
    if (output.type === 'text' && typeof output.text === 'string') return { type: 'text', value: output.text };
    if (output.type === 'image' || output.type === 'file') return structuredOutput(legacyPieces(output), model);
  }
  return { type: 'text', value: String(output) };
}

/** The older single-output shapes (`{ type: 'image', image }`, `{ type: 'file' }`) as protocol `input_*` parts. */
function legacyPieces(output: Piece): Piece[] {
  if (output.type === 'file') return [];
  const piece: Piece = { type: 'input_image' };
  if (output.detail) piece.detail = output.detail;
  const image = output.image;
  if (typeof image === 'string' && image !== '') piece.image = image;
  else if (isObject(image)) {
    const mediaType = typeof image.mediaType === 'string' && image.mediaType !== '' ? image.mediaType : typeof image.mimeType === 'string' && image.mimeType !== '' ? image.mimeType : undefined;
    const id = (typeof image.fileId === 'string' && image.fileId !== '' ? image.fileId : undefined) ?? (typeof image.id === 'string' && image.id !== '' ? image.id : undefined);
    if (typeof image.url === 'string' && image.url !== '') piece.image = image.url;
    else if (typeof image.data === 'string' && image.data !== '') piece.image = inline(image.data, mediaType);
    else if (image.data instanceof Uint8Array && image.data.length > 0) piece.image = inline(base64Of(image.data), mediaType);
    else if (id !== undefined) piece.image = { id };
  }
  if (output.providerData) piece.providerData = output.providerData;
  return [piece];
}

function inline(data: string, mediaType: string | undefined): string {
  if (data.startsWith('data:')) return data;
  return mediaType ? `data:${mediaType};base64,${data}` : data;
}

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function structuredOutput(pieces: Piece[], model: ModelTarget): Record<string, unknown> {
  const spec = targetSpec(model);
  const text: string[] = [];
  const images: Piece[] = [];
  for (const piece of pieces) {
    if (piece.type === 'input_text') {
      text.push(String(piece.text));
    } else if (piece.type === 'input_image') {
      const objectId = isObject(piece.image) && typeof piece.image.id === 'string' ? piece.image.id : undefined;
      const legacyId = typeof piece.fileId === 'string' ? piece.fileId : undefined;
      const fileId = objectId ?? legacyId;
      if (spec !== 'v2' && fileId !== undefined) {
        images.push(spec === 'v4' ? { type: 'file', data: { type: 'reference', reference: { [model.provider.split('.')[0] || model.provider]: fileId } }, mediaType: 'image' } : { type: 'image-file-id', fileId });
        continue;
      }
      const source = typeof piece.image === 'string' ? piece.image : objectId ? `openai-file:${objectId}` : typeof piece.imageUrl === 'string' ? piece.imageUrl : undefined;
      if (source === undefined) {
        text.push(legacyId !== undefined ? `[image file_id=${legacyId}]` : '[image]');
        continue;
      }
      const data = base64DataUrl(source);
      if (data) {
        images.push(
          spec === 'v4'
            ? { type: 'file', data: { type: 'data', data: data.data }, mediaType: data.mediaType }
            : spec === 'v3'
              ? { type: 'image-data', data: data.data, mediaType: data.mediaType }
              : { type: 'media', data: data.data, mediaType: data.mediaType },
        );
        continue;
      }
      let url: URL;
      try {
        url = new URL(source);
      } catch {
        text.push(source);
        continue;
      }
      images.push(spec === 'v4' ? { type: 'file', data: { type: 'url', url }, mediaType: 'image' } : spec === 'v3' ? { type: 'image-url', url: url.toString() } : { type: 'media', data: url.toString(), mediaType: 'image/*' });
    } else if (piece.type === 'input_file') {
      text.push('[file output skipped]');
    }
  }
  if (images.length === 0) return { type: 'text', value: text.join('') };
  return { type: 'content', value: [...(text.length > 0 ? [{ type: 'text', text: text.join('') }] : []), ...images] };
}
