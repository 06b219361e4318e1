import { UserError, type FunctionCallResultOutput } from '@baton/types';
import type { AiSdkSpecificationVersion } from '../languageModel.js';
import { fileSourceOf, mediaTypeOf, referenceKey, type FileSource } from './fileData.js';
import { isRecord } from './json.js';
import type { ToolResultOutput } from './promptTypes.js';

export interface ToolOutputContext {
  readonly spec: AiSdkSpecificationVersion;
  readonly provider: string;
  readonly toolName: string;
}

type Piece = { kind: 'text'; text: string } | { kind: 'file'; source: FileSource; mediaType: string; filename?: string | undefined; image: boolean };

/**
 * A function tool's output as the spec's tool-result `output`: `text` when it is text only, else
 * `content` with text and file parts in their order (images and files inline, by URL or by
 * provider file id), in the shape of the model's spec version.
 */
export function toolResultOutput(output: FunctionCallResultOutput, context: ToolOutputContext): ToolResultOutput {
  if (typeof output === 'string') return { type: 'text', value: output };
  const pieces = (Array.isArray(output) ? output : [output]).map((part) => pieceOf(part, context));
  if (pieces.every((piece) => piece.kind === 'text')) return { type: 'text', value: pieces.map((piece) => piece.text).join('') };
  if (context.spec === 'v4') {
    return {
      type: 'content',
      value: pieces.map((piece) => {
        if (piece.kind === 'text') return { type: 'text' as const, text: piece.text };
        const data =
          piece.source.kind === 'data'
            ? { type: 'data' as const, data: piece.source.data }
            : piece.source.kind === 'url'
              ? { type: 'url' as const, url: piece.source.url }
              : { type: 'reference' as const, reference: { [referenceKey(context.provider)]: piece.source.id } };
        return { type: 'file' as const, data, mediaType: piece.mediaType, ...(piece.filename === undefined ? {} : { filename: piece.filename }) };
      }),
    };
  }
  if (context.spec === 'v2') {
    // v2 content: text and `media` parts (inline base64 or a URL string; no provider file ids).
    return {
      type: 'content',
      value: pieces.map((piece) => {
        if (piece.kind === 'text') return { type: 'text' as const, text: piece.text };
        if (piece.source.kind === 'reference') throw new UserError(`${`The output of tool "${context.toolName}"`} refers to a provider file id, which AI SDK 5 (v2) models cannot take.`);
        return { type: 'media' as const, data: piece.source.kind === 'data' ? piece.source.data : piece.source.url.toString(), mediaType: piece.mediaType };
      }),
    } as unknown as ToolResultOutput;
  }
  return {
    type: 'content',
    value: pieces.map((piece) => {
      if (piece.kind === 'text') return { type: 'text' as const, text: piece.text };
      const { source, mediaType, image } = piece;
      if (source.kind === 'data') {
        return image ? { type: 'image-data' as const, data: source.data, mediaType } : { type: 'file-data' as const, data: source.data, mediaType, ...(piece.filename === undefined ? {} : { filename: piece.filename }) };
      }
      if (source.kind === 'url') return image ? { type: 'image-url' as const, url: source.url.toString() } : { type: 'file-url' as const, url: source.url.toString() };
      return image ? { type: 'image-file-id' as const, fileId: source.id } : { type: 'file-id' as const, fileId: source.id };
    }),
  };
}

function pieceOf(part: unknown, context: ToolOutputContext): Piece {
  const what = `The output of tool "${context.toolName}"`;
  if (!isRecord(part) || typeof part.type !== 'string') throw new UserError(`${what} has a part that is not a content part: ${JSON.stringify(part)}.`);
  const mediaOptions = (image: boolean, filename?: string) => ({
    explicit: isRecord(part.providerData) ? part.providerData.mediaType : undefined,
    filename,
    image,
    spec: context.spec,
    what,
  });
  switch (part.type) {
    case 'text':
    case 'input_text':
      return { kind: 'text', text: String(part.text ?? '') };
    case 'image':
    case 'input_image': {
      const source = fileSourceOf(part.image, `${what} (image)`, false);
      return { kind: 'file', source, mediaType: mediaTypeOf(source, mediaOptions(true)), image: true };
    }
    case 'input_file': {
      const filename = typeof part.filename === 'string' ? part.filename : undefined;
      const source = fileSourceOf(part.file, `${what} (file)`, true);
      return { kind: 'file', source, mediaType: mediaTypeOf(source, mediaOptions(false, filename)), filename, image: false };
    }
    default:
      throw new UserError(`${what} has a content part of type "${part.type}", which the AI SDK cannot carry.`);
  }
}
