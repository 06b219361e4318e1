import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep, win32 } from 'node:path';
import { LocalEditorError } from '../localEditorError.js';

/**
 * Resolves a path the model gave against a root folder, refusing every way out of it: absolute
 * paths, `..` segments, and symlinks (anywhere along the path) that point outside. The root is
 * compared by its real path, so a root that is itself reached through a symlink still works.
 */

export interface ConfinedPath {
  /** The path as the model wrote it (for messages). */
  requested: string;
  /** Where to read and write: symlinks inside the root followed to their real target. */
  real: string;
  /** The entry itself (a symlink is not followed): what a delete removes. */
  entry: string;
}

const exists = (path: string) => lstat(path).then((stats) => stats, () => undefined);

export const isInside = (root: string, path: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

export async function confine(rootReal: string, requested: string): Promise<ConfinedPath> {
  const refuse = (why: string): never => {
    throw new LocalEditorError(requested, `Refused path ${JSON.stringify(requested)}: ${why}`);
  };
  if (requested.trim() === '') refuse('it is empty');
  if (requested.includes('\0')) refuse('it contains a NUL character');
  if (isAbsolute(requested) || win32.isAbsolute(requested)) refuse('absolute paths are not allowed; give a path relative to the editor root');
  if (requested.split(/[\\/]+/).includes('..')) refuse('".." segments are not allowed; the path must stay inside the editor root');
  const target = join(rootReal, requested);
  if (target === rootReal) refuse('it names the editor root itself, not a file');

  // The deepest part of the path that exists decides where it really leads.
  let existing = target;
  while (!(await exists(existing))) existing = dirname(existing);
  const existingReal = await realpath(existing).catch(() => refuse(`${JSON.stringify(relative(rootReal, existing))} is a symlink whose target does not exist`));
  if (!isInside(rootReal, existingReal)) refuse('it goes through a symlink that points outside the editor root');
  const real = join(existingReal, relative(existing, target));
  const entryParent = existing === target ? await realpath(dirname(target)) : join(existingReal, relative(existing, dirname(target)));
  if (!isInside(rootReal, entryParent)) refuse('it goes through a symlink that points outside the editor root');
  return { requested, real, entry: join(entryParent, basename(target)) };
}
