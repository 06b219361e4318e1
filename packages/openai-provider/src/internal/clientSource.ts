import type OpenAI from 'openai';
import { loadOpenAI, loadedOpenAI } from './openaiModule.js';

/** An `openai` client, or a function that makes one when the first request needs it. */
export type OpenAIClientSource = OpenAI | (() => OpenAI | Promise<OpenAI>);

/** The client for a request; the `openai` module is loaded first, so its error classes are known. */
export async function clientOf(source: OpenAIClientSource): Promise<OpenAI> {
  await loadOpenAI();
  return typeof source === 'function' ? source() : source;
}

/** A client made from `options` on the first request (`clientOf` has loaded `openai` by then), once. */
export function lazyClient(options: ConstructorParameters<typeof OpenAI>[0]): () => OpenAI {
  let client: OpenAI | undefined;
  return () => (client ??= new (loadedOpenAI()!.default)(options));
}
