import type OpenAI from 'openai';
import { UserError } from '@baton/types';
import { isRecord, type Json } from '../json.js';

/**
 * The Responses WebSocket URL: the base URL with `ws(s)` for `http(s)` and `/responses` at the end of
 * its path, the client's default query, and `extra_query` (plain values only).
 */
export function responsesWebSocketURL(base: string, extraQuery: Json | undefined): string {
  const url = new URL(base);
  if (url.protocol === 'https:') url.protocol = 'wss:';
  else if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new UserError(`Unsupported websocket base URL protocol: ${url.protocol}`);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/responses') ? path : `${path}/responses`;
  for (const [key, value] of Object.entries(extraQuery ?? {})) {
    if (value === undefined || value === null) continue;
    if (isRecord(value) || Array.isArray(value)) throw new UserError(`Responses websocket extra query must be plain values; "${key}" is not.`);
    url.searchParams.set(key, String(value));
  }
  return url.toString();
}

/** The handshake headers: the client's credentials, organization and project, then `extra_headers`. */
export function webSocketHeaders(client: OpenAI, extraHeaders: Json | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (typeof client.apiKey === 'string' && client.apiKey !== '' && client.apiKey !== 'Missing Key') headers.Authorization = `Bearer ${client.apiKey}`;
  if (client.organization) headers['OpenAI-Organization'] = client.organization;
  if (client.project) headers['OpenAI-Project'] = client.project;
  for (const [name, value] of Object.entries(extraHeaders ?? {})) {
    if (value === null || value === undefined) delete headers[name];
    else headers[name] = String(value);
  }
  return headers;
}
