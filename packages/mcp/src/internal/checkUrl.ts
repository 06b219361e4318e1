import { UserError } from '@baton/types';

/** The server's URL, or a `UserError` naming the class and what was given. */
export function checkUrl(options: { url?: unknown } | null | undefined, owner: string): URL {
  if (typeof options !== 'object' || options === null) throw new UserError(`${owner}: expected an options object.`);
  if (typeof options.url !== 'string') throw new UserError(`${owner}: \`url\` must be a string, got ${typeof options.url}.`);
  try {
    return new URL(options.url);
  } catch {
    throw new UserError(`${owner}: \`url\` is not a valid URL: "${options.url}".`);
  }
}
