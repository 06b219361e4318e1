import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalEditor, LocalEditorError } from '../src/index.js';

const lines = (...text: string[]) => `${text.join('\n')}\n`;

describe('LocalEditor', () => {
  let base: string;
  let root: string;
  let outside: string;
  let editor: LocalEditor;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'baton-editor-'));
    root = join(base, 'project');
    outside = join(base, 'outside');
    mkdirSync(root);
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), 'secret\n');
    editor = new LocalEditor({ root });
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const read = (path: string) => readFileSync(join(root, path), 'utf8');

  it('creates a file (and its folders), updates it, moves it and deletes it', async () => {
    expect(await editor.createFile({ type: 'create_file', path: 'src/app.ts', diff: lines('+export const a = 1;', '+') })).toEqual({
      status: 'completed',
      output: 'Created src/app.ts',
    });
    expect(read('src/app.ts')).toBe('export const a = 1;\n');

    await editor.updateFile({ type: 'update_file', path: 'src/app.ts', diff: lines('-export const a = 1;', '+export const a = 2;') });
    expect(read('src/app.ts')).toBe('export const a = 2;\n');

    expect(await editor.updateFile({ type: 'update_file', path: 'src/app.ts', moveTo: 'lib/main.ts', diff: lines('-export const a = 2;', '+export const b = 3;') })).toEqual({
      status: 'completed',
      output: 'Updated src/app.ts and moved it to lib/main.ts',
    });
    expect(existsSync(join(root, 'src/app.ts'))).toBe(false);
    expect(read('lib/main.ts')).toBe('export const b = 3;\n');

    expect(await editor.deleteFile({ type: 'delete_file', path: 'lib/main.ts' })).toEqual({ status: 'completed', output: 'Deleted lib/main.ts' });
    expect(existsSync(join(root, 'lib/main.ts'))).toBe(false);
  });

  it('replaces an existing file on create', async () => {
    writeFileSync(join(root, 'a.txt'), 'old\n');
    await editor.createFile({ type: 'create_file', path: 'a.txt', diff: '+new\n+\n' });
    expect(read('a.txt')).toBe('new\n');
  });

  it('keeps a file\'s permissions and leaves no temporary files behind', async () => {
    writeFileSync(join(root, 'run.sh'), lines('#!/bin/sh', 'echo hi'));
    chmodSync(join(root, 'run.sh'), 0o755);
    await editor.updateFile({ type: 'update_file', path: 'run.sh', diff: lines(' #!/bin/sh', '-echo hi', '+echo hello') });
    expect(statSync(join(root, 'run.sh')).mode & 0o777).toBe(0o755);
    expect(readdirSync(root)).toEqual(['run.sh']);
  });

  it.each([
    ['../outside/secret.txt', '".." segments are not allowed'],
    ['src/../../outside/secret.txt', '".." segments are not allowed'],
    ['<absolute>', 'absolute paths are not allowed'],
    ['C:\\Windows\\win.ini', 'absolute paths are not allowed'],
    ['', 'it is empty'],
    ['.', 'it names the editor root itself'],
  ])('refuses %j and names it', async (given, why) => {
    const path = given === '<absolute>' ? join(outside, 'secret.txt') : given;
    const attempts = [
      editor.createFile({ type: 'create_file', path, diff: '+x\n' }),
      editor.updateFile({ type: 'update_file', path, diff: '-secret\n+pwned\n' }),
      editor.deleteFile({ type: 'delete_file', path }),
    ];
    for (const attempt of attempts) {
      const error = await attempt.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LocalEditorError);
      expect((error as Error).message.startsWith(`Refused path ${JSON.stringify(path)}: `)).toBe(true);
      expect((error as Error).message).toContain(why);
      expect((error as LocalEditorError).path).toBe(path);
    }
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret\n');
  });

  it('refuses symlinks that point outside the root, through a folder or to a file', async () => {
    symlinkSync(outside, join(root, 'linked'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link.txt'));
    for (const path of ['linked/secret.txt', 'linked/new.txt', 'linked/deeper/new.txt', 'secret-link.txt']) {
      await expect(editor.updateFile({ type: 'update_file', path, diff: '-secret\n+pwned\n' })).rejects.toThrow(
        `Refused path ${JSON.stringify(path)}: it goes through a symlink that points outside the editor root`,
      );
      await expect(editor.createFile({ type: 'create_file', path, diff: '+pwned\n' })).rejects.toThrow(LocalEditorError);
      await expect(editor.deleteFile({ type: 'delete_file', path })).rejects.toThrow(LocalEditorError);
    }
    // Moving a file out through a symlink is refused too, and the file stays where it was.
    writeFileSync(join(root, 'a.txt'), 'a\n');
    await expect(editor.updateFile({ type: 'update_file', path: 'a.txt', moveTo: 'linked/a.txt', diff: '-a\n+b\n' })).rejects.toThrow(/Refused path "linked\/a.txt"/);
    expect(read('a.txt')).toBe('a\n');
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret\n');
  });

  it('follows symlinks that stay inside the root, and deletes a link rather than its target', async () => {
    mkdirSync(join(root, 'real'));
    writeFileSync(join(root, 'real/file.txt'), 'one\n');
    symlinkSync(join(root, 'real'), join(root, 'alias'));
    symlinkSync(join(root, 'real/file.txt'), join(root, 'file-link.txt'));
    await editor.updateFile({ type: 'update_file', path: 'alias/file.txt', diff: '-one\n+two\n' });
    await editor.updateFile({ type: 'update_file', path: 'file-link.txt', diff: '-two\n+three\n' });
    expect(read('real/file.txt')).toBe('three\n');
    await editor.deleteFile({ type: 'delete_file', path: 'file-link.txt' });
    expect(existsSync(join(root, 'file-link.txt'))).toBe(false);
    expect(read('real/file.txt')).toBe('three\n');
  });

  it('works when the root itself is reached through a symlink', async () => {
    symlinkSync(root, join(base, 'root-link'));
    const linked = new LocalEditor({ root: join(base, 'root-link') });
    await linked.createFile({ type: 'create_file', path: 'x.txt', diff: '+x\n' });
    expect(read('x.txt')).toBe('x');
  });

  it('leaves the file untouched when the patch does not apply, naming the file and the hunk', async () => {
    const original = lines('alpha', 'beta', 'gamma');
    writeFileSync(join(root, 'notes.txt'), original);
    const error = await editor
      .updateFile({ type: 'update_file', path: 'notes.txt', diff: lines('@@ alpha', '-beta', '+BETA', '@@ gamma', '-delta', '+DELTA') })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalEditorError);
    expect((error as Error).message).toBe('Could not apply the patch to notes.txt: Invalid diff, hunk 2: its lines were not found at or after line 4 (after "@@ gamma"):\ndelta');
    expect(read('notes.txt')).toBe(original);
    await expect(editor.updateFile({ type: 'update_file', path: 'notes.txt', diff: lines(' alpha', 'oops') })).rejects.toThrow(
      'Could not apply the patch to notes.txt: Invalid diff, hunk 1: line "oops" starts with neither " ", "-" nor "+"',
    );
    await expect(editor.createFile({ type: 'create_file', path: 'new.txt', diff: lines('+ok', 'not added') })).rejects.toThrow(
      'Could not apply the patch to new.txt: Invalid diff: line 2 of a new file does not start with "+": "not added"',
    );
    expect(existsSync(join(root, 'new.txt'))).toBe(false);
    expect(readdirSync(root)).toEqual(['notes.txt']);
  });

  it('names a missing file, a folder and a missing root', async () => {
    await expect(editor.updateFile({ type: 'update_file', path: 'missing.txt', diff: '+x\n' })).rejects.toThrow(
      'Cannot patch missing.txt: the file does not exist (use create_file for a new file)',
    );
    await expect(editor.deleteFile({ type: 'delete_file', path: 'missing.txt' })).rejects.toThrow('Cannot patch missing.txt: the file does not exist');
    mkdirSync(join(root, 'dir'));
    await expect(editor.deleteFile({ type: 'delete_file', path: 'dir' })).rejects.toThrow('Cannot patch dir: it is a folder; only files are deleted');
    await expect(editor.createFile({ type: 'create_file', path: 'dir', diff: '+x\n' })).rejects.toThrow('Cannot patch dir: it is a folder');
    await expect(new LocalEditor({ root: join(base, 'nowhere') }).createFile({ type: 'create_file', path: 'a', diff: '+a\n' })).rejects.toThrow(
      `The editor root ${join(base, 'nowhere')} does not exist`,
    );
  });
});
