import { lstat, mkdir, readFile, realpath, unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ApplyPatchOperationCreateFile, ApplyPatchOperationDeleteFile, ApplyPatchOperationUpdateFile, ApplyPatchResult, Editor } from '@baton/types';
import { applyDiff } from './applyDiff.js';
import { writeFileAtomically } from './internal/atomicWrite.js';
import { confine, type ConfinedPath } from './internal/confinedPath.js';
import { LocalEditorError } from './localEditorError.js';

export interface LocalEditorOptions {
  /** The folder the editor works in; no operation reaches outside it. */
  root: string;
}

/**
 * Applies the apply-patch tool's operations to files under one root folder. Paths are relative to
 * the root; absolute paths, `..` and symlinks that point outside are refused with a
 * `LocalEditorError` naming the path. A diff that does not apply fails naming the file and the
 * hunk, and leaves the file untouched: new content is written to a temporary file and renamed
 * over the old one.
 */
export class LocalEditor implements Editor {
  readonly root: string;
  private rootReal: Promise<string> | undefined;

  constructor(options: LocalEditorOptions) {
    this.root = resolve(options.root);
  }

  async createFile(operation: ApplyPatchOperationCreateFile): Promise<ApplyPatchResult> {
    const file = await this.confine(operation.path);
    const content = patched(file, () => applyDiff('', operation.diff, 'create'));
    if ((await lstat(file.real).catch(() => undefined))?.isDirectory()) fail(file, 'it is a folder');
    await mkdir(dirname(file.real), { recursive: true });
    await writeFileAtomically(file.real, content);
    return { status: 'completed', output: `Created ${operation.path}` };
  }

  async updateFile(operation: ApplyPatchOperationUpdateFile): Promise<ApplyPatchResult> {
    const file = await this.confine(operation.path);
    const destination = operation.moveTo === undefined ? undefined : await this.confine(operation.moveTo);
    const original = await this.readExisting(file);
    const content = patched(file, () => applyDiff(original, operation.diff));
    if (destination === undefined || destination.real === file.real) {
      await writeFileAtomically(file.real, content);
      return { status: 'completed', output: `Updated ${operation.path}` };
    }
    if ((await lstat(destination.real).catch(() => undefined))?.isDirectory()) fail(destination, 'it is a folder');
    await mkdir(dirname(destination.real), { recursive: true });
    await writeFileAtomically(destination.real, content, file.real);
    await unlink(file.entry);
    return { status: 'completed', output: `Updated ${operation.path} and moved it to ${operation.moveTo}` };
  }

  async deleteFile(operation: ApplyPatchOperationDeleteFile): Promise<ApplyPatchResult> {
    const file = await this.confine(operation.path);
    const stats = await lstat(file.entry).catch(() => undefined);
    if (stats === undefined) fail(file, 'the file does not exist');
    if (stats!.isDirectory()) fail(file, 'it is a folder; only files are deleted');
    await unlink(file.entry);
    return { status: 'completed', output: `Deleted ${operation.path}` };
  }

  private async confine(path: string): Promise<ConfinedPath> {
    this.rootReal ??= realpath(this.root).catch((cause: unknown) => {
      this.rootReal = undefined;
      throw new LocalEditorError(this.root, `The editor root ${this.root} does not exist`, { cause });
    });
    return confine(await this.rootReal, path);
  }

  private async readExisting(file: ConfinedPath): Promise<string> {
    const stats = await lstat(file.real).catch(() => undefined);
    if (stats === undefined) fail(file, 'the file does not exist (use create_file for a new file)');
    if (!stats!.isFile()) fail(file, 'it is not a regular file');
    return readFile(file.real, 'utf8');
  }
}

function fail(file: ConfinedPath, why: string): never {
  throw new LocalEditorError(file.requested, `Cannot patch ${file.requested}: ${why}`);
}

/** Runs `applyDiff`, naming the file in its error. */
function patched(file: ConfinedPath, apply: () => string): string {
  try {
    return apply();
  } catch (cause) {
    throw new LocalEditorError(file.requested, `Could not apply the patch to ${file.requested}: ${(cause as Error).message}`, { cause });
  }
}
