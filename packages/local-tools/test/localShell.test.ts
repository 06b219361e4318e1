import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalShell, ShellAbortedError } from '../src/index.js';

const posix = process.platform !== 'win32';

/** True while a process with this pid exists and is not a zombie waiting to be reaped. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const status = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return status.slice(status.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

async function waitFor(path: string): Promise<string> {
  for (let i = 0; i < 500 && !existsSync(path); i += 1) await new Promise((r) => setTimeout(r, 20));
  return readFileSync(path, 'utf8').trim();
}

describe.skipIf(!posix)('LocalShell', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-shell-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs each command in order in the working directory and reports stdout, stderr and the exit code', async () => {
    const shell = new LocalShell({ cwd: dir });
    const result = await shell.run({ commands: ['pwd; echo out; echo err >&2', 'exit 3'] });
    expect(result.output).toEqual([
      { stdout: `${dir}\nout\n`, stderr: 'err\n', outcome: { type: 'exit', exitCode: 0 } },
      { stdout: '', stderr: '', outcome: { type: 'exit', exitCode: 3 } },
    ]);
    expect(result.maxOutputLength).toBeUndefined();
  });

  it('reports a command killed by a signal with a null exit code', async () => {
    const result = await new LocalShell({ cwd: dir }).run({ commands: ['kill -9 $$'] });
    expect(result.output[0]!.outcome).toEqual({ type: 'exit', exitCode: null });
  });

  it('passes only the allow-listed environment, plus the variables it sets', async () => {
    process.env.BATON_TEST_SECRET = 'sk-do-not-leak';
    process.env.BATON_TEST_ALLOWED = 'visible';
    try {
      const shell = new LocalShell({ cwd: dir, inheritEnv: ['PATH', 'BATON_TEST_ALLOWED'], env: { GREETING: 'hi' } });
      const { output } = await shell.run({ commands: ['env'] });
      const names = output[0]!.stdout.split('\n').filter(Boolean).map((line) => line.split('=')[0]);
      expect(output[0]!.stdout).not.toContain('sk-do-not-leak');
      expect(output[0]!.stdout).toContain('BATON_TEST_ALLOWED=visible');
      expect(output[0]!.stdout).toContain('GREETING=hi');
      // The shell itself adds PWD / SHLVL / _; nothing else of this process's environment.
      expect(names.filter((name) => !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(name!)).sort()).toEqual(['BATON_TEST_ALLOWED', 'GREETING', 'PATH']);
    } finally {
      delete process.env.BATON_TEST_SECRET;
      delete process.env.BATON_TEST_ALLOWED;
    }
  });

  it('truncates flooding output at the limit, says so, and reports the limit it enforced', async () => {
    const shell = new LocalShell({ cwd: dir, maxOutputLength: 1_000 });
    const { output, maxOutputLength } = await shell.run({ commands: ['yes ab | head -c 200000; echo done >&2'] });
    expect(output[0]!.stdout.startsWith('ab\nab\n')).toBe(true);
    expect(output[0]!.stdout).toMatch(/\n\[output truncated: 199000 more characters not shown \(limit 1000\)\]$/);
    expect(output[0]!.stderr).toBe('done\n');
    expect(maxOutputLength).toBe(1_000);
    // The model may ask for less, never for more than the shell's ceiling.
    const small = await shell.run({ commands: ['printf 0123456789'], maxOutputLength: 4 });
    expect(small.output[0]!.stdout).toBe('0123\n[output truncated: 6 more characters not shown (limit 4)]');
    const big = await shell.run({ commands: ['head -c 5000 /dev/zero | tr "\\0" x'], maxOutputLength: 1_000_000 });
    expect(big.maxOutputLength).toBe(1_000);
  });

  it('keeps multi-byte characters whole across chunks', async () => {
    const { output } = await new LocalShell({ cwd: dir }).run({ commands: ['for i in $(seq 1 3000); do printf "é€"; done'] });
    expect(output[0]!.stdout).toBe('é€'.repeat(3000));
  });

  it('times out a hanging command, ends its whole process group (children that ignore SIGTERM too) and skips the rest', async () => {
    const pidFile = join(dir, 'child.pid');
    const shell = new LocalShell({ cwd: dir, killGraceMs: 300 });
    const started = Date.now();
    const result = await shell.run({
      commands: [`sh -c 'trap "" TERM; echo $$ > ${pidFile}; while true; do sleep 0.1; done' & echo started; wait`, 'echo never'],
      timeoutMs: 1_500,
    });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(result.output).toEqual([{ stdout: 'started\n', stderr: '', outcome: { type: 'timeout' } }]);
    const pid = Number(await waitFor(pidFile));
    await new Promise((r) => setTimeout(r, 100));
    expect(running(pid)).toBe(false);
  });

  it('ends background processes a command leaves behind when it exits', async () => {
    const pidFile = join(dir, 'bg.pid');
    const shell = new LocalShell({ cwd: dir, killGraceMs: 200 });
    const result = await shell.run({ commands: [`(trap "" TERM; sleep 30) > /dev/null 2>&1 & echo $! > ${pidFile}; echo left`] });
    expect(result.output[0]).toEqual({ stdout: 'left\n', stderr: '', outcome: { type: 'exit', exitCode: 0 } });
    const pid = Number(await waitFor(pidFile));
    await new Promise((r) => setTimeout(r, 100));
    expect(running(pid)).toBe(false);
  });

  it('uses the model timeout up to the ceiling', async () => {
    const shell = new LocalShell({ cwd: dir, timeoutMs: 30_000, maxTimeoutMs: 300, killGraceMs: 100 });
    const started = Date.now();
    const result = await shell.run({ commands: ['sleep 20'], timeoutMs: 60_000 });
    expect(result.output[0]!.outcome).toEqual({ type: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops on abort, ends the process group and rejects with ShellAbortedError', async () => {
    const pidFile = join(dir, 'abort.pid');
    const controller = new AbortController();
    const shell = new LocalShell({ cwd: dir, killGraceMs: 200 });
    const running$ = shell.run({ commands: [`sh -c 'trap "" TERM; echo $$ > ${pidFile}; sleep 30' & wait`] }, { signal: controller.signal });
    const pid = Number(await waitFor(pidFile));
    controller.abort();
    const error = await running$.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShellAbortedError);
    expect((error as Error).message).toContain('Shell command aborted');
    await new Promise((r) => setTimeout(r, 100));
    expect(running(pid)).toBe(false);
    // An already-aborted signal runs nothing.
    await expect(shell.run({ commands: [`touch ${join(dir, 'nope')}`] }, { signal: controller.signal })).rejects.toBeInstanceOf(ShellAbortedError);
    expect(existsSync(join(dir, 'nope'))).toBe(false);
  });

  it('names a missing working directory and rejects bad limits', async () => {
    await expect(new LocalShell({ cwd: join(dir, 'missing') }).run({ commands: ['true'] })).rejects.toThrow(/working directory .*missing does not exist/);
    expect(() => new LocalShell({ timeoutMs: 0 })).toThrow(/timeoutMs must be a positive number/);
    await expect(new LocalShell({ cwd: dir, shell: join(dir, 'no-such-shell') }).run({ commands: ['true'] })).rejects.toThrow(
      `LocalShell: could not start ${join(dir, 'no-such-shell')} for "true": spawn ${join(dir, 'no-such-shell')} ENOENT`,
    );
  });
});
