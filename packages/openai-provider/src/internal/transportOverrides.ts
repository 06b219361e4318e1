import { UserError } from '@baton/types';
import { isRecord, type Json } from './json.js';

/** What `modelSettings.providerData` asks of the HTTP request itself rather than of its body. */
export interface TransportOverrides {
  /** Merged over the request body last (`extra_body` / `extraBody`). */
  readonly extraBody?: Json | undefined;
  /** Extra HTTP headers (`extra_headers` / `extraHeaders`); `null` unsets a header. */
  readonly extraHeaders?: Json | undefined;
  /** Extra query parameters (`extra_query` / `extraQuery`). */
  readonly extraQuery?: Json | undefined;
}

/**
 * Splits `providerData` as the reference does: `extra_body`, `extra_headers` and `extra_query`
 * (or their camelCase names) go to the request; every other key goes into the body.
 */
export function splitTransportOverrides(providerData: unknown): { providerData: Json; overrides: TransportOverrides } {
  if (!isRecord(providerData)) return { providerData: {}, overrides: {} };
  const { extra_headers, extraHeaders, extra_query, extraQuery, extra_body, extraBody, ...rest } = providerData;
  return {
    providerData: rest,
    // Checked in the reference's order (headers, query, body): the first bad one is reported.
    overrides: {
      extraHeaders: mapping(extra_headers !== undefined ? extra_headers : extraHeaders, 'extra headers'),
      extraQuery: mapping(extra_query !== undefined ? extra_query : extraQuery, 'extra query'),
      extraBody: mapping(extra_body !== undefined ? extra_body : extraBody, 'extra_body'),
    },
  };
}

/**
 * A plain object, copied. Anything else (`null`, an array, `URLSearchParams`, `Headers`, a class
 * instance) is refused before any request is sent, over HTTP as over the WebSocket, with the
 * reference's message (which callers may match on) leading.
 */
function mapping(value: unknown, label: string): Json | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value) || (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)) {
    throw new UserError(`Responses websocket ${label} must be a mapping. (modelSettings.providerData ${label} must be a plain object, got ${describe(value)}.)`);
  }
  return { ...value };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return `a ${value.constructor?.name ?? 'non-plain'} object`;
  return typeof value;
}
