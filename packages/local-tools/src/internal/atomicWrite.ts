import { randomBytes } from 'node:crypto';
import { chmod, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file all at once: the content goes to a temporary file beside it, which then replaces
 * the file by a rename. A failure part-way leaves the old file as it was. The file's permissions
 * are kept (or taken from `modeFrom` when the file moves).
 */
export async function writeFileAtomically(path: string, content: string, modeFrom: string = path): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const mode = await stat(modeFrom).then((stats) => stats.mode & 0o7777, () => undefined);
  try {
    await writeFile(temporary, content, { flag: 'wx' });
    if (mode !== undefined) await chmod(temporary, mode);
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
