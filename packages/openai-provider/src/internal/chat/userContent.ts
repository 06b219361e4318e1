import { UserError, type UserContent } from '@baton/types';
import { extraFields, isRecord, type Json } from '../json.js';

/**
 * A user content part as a Chat Completions content part, as the reference sends it: the part's
 * fields, its prompt-cache breakpoint, then its `providerData` (an `image_url` or `input_audio`
 * object in it adds to the one the part makes). Chat Completions takes images by URL, files as a
 * data URL or `{ id }`, audio as inline wav or mp3 data.
 */
export function userContentPart(part: UserContent): Json {
  const breakpoint = part.promptCacheBreakpoint ? { prompt_cache_breakpoint: part.promptCacheBreakpoint } : {};
  const data = isRecord(part.providerData) ? part.providerData : undefined;
  switch (part.type) {
    case 'input_text':
      return { type: 'text', text: part.text, ...breakpoint, ...extraFields(data, ['type', 'text']) };
    case 'input_image': {
      // `imageUrl`: the field older reference items used.
      const legacyUrl = (part as { imageUrl?: unknown }).imageUrl;
      const url = typeof part.image === 'string' ? part.image : typeof legacyUrl === 'string' ? legacyUrl : undefined;
      if (url === undefined) throw new UserError(`Only image URLs are supported for input_image: ${JSON.stringify(part)}`);
      return {
        type: 'image_url',
        image_url: { url, ...(part.detail !== undefined ? { detail: part.detail } : {}), ...extraFields(data?.image_url, ['url']) },
        ...breakpoint,
        ...extraFields(data, ['type', 'image_url']),
      };
    }
    case 'input_file':
      return { type: 'file', file: fileReference(part), ...breakpoint, ...extraFields(data, ['type', 'file', 'filename']) };
    case 'audio': {
      if (typeof part.audio !== 'string') throw new UserError(`Chat Completions only supports inline audio data for input_audio: ${JSON.stringify(part)}`);
      const format = audioFormat(part.format) ?? audioFormat(isRecord(data?.input_audio) ? data.input_audio.format : undefined);
      if (format === undefined) throw new UserError(`Chat Completions input_audio requires format "wav" or "mp3": ${JSON.stringify(part)}`);
      return {
        type: 'input_audio',
        input_audio: { data: part.audio, format, ...extraFields(data?.input_audio, ['data', 'format']) },
        ...breakpoint,
        ...extraFields(data, ['type', 'input_audio']),
      };
    }
    default:
      throw new UserError(`Unsupported user content part: ${JSON.stringify(part)}.`);
  }
}

function fileReference(part: Extract<UserContent, { type: 'input_file' }>): Json {
  const file: Json = {};
  if (typeof part.file === 'string') {
    const value = part.file.trim();
    if (!value.startsWith('data:')) {
      throw new UserError(
        `Chat Completions only supports data URLs for file input. If you're trying to pass an uploaded file's ID, use an object with the id property instead: ${JSON.stringify(part)}`,
      );
    }
    file.file_data = value;
  } else if (isRecord(part.file) && 'id' in part.file) {
    file.file_id = part.file.id;
  } else {
    throw new UserError(`File input requires a data URL or file ID: ${JSON.stringify(part)}`);
  }
  const filename = part.filename || (isRecord(part.providerData) ? part.providerData.filename : undefined);
  if (filename) file.filename = filename;
  return file;
}

function audioFormat(format: unknown): 'wav' | 'mp3' | undefined {
  return format === 'wav' || format === 'mp3' ? format : undefined;
}
