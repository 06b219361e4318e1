/**
 * Starts a throwaway PostgreSQL server for the store tests: `initdb` into a temp directory, then
 * `pg_ctl start` on a free port on 127.0.0.1, as the `postgres` user when running as root. When the
 * server binaries are missing and we are root, they are installed with apt-get first. Nothing is
 * skipped: without a server the tests fail with the reason.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PostgresServer {
  connectionString: string;
  port: number;
  stop(): void;
}

function findBinDir(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(base, versions[0], 'bin') : undefined;
}

function installPostgres(): void {
  if (process.getuid?.() !== 0) throw new Error('PostgreSQL server binaries are missing and this is not root: install postgresql (apt-get install -y postgresql).');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'ignore', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], { stdio: 'ignore', env });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startPostgres(): Promise<PostgresServer> {
  let bin = findBinDir();
  if (!bin) {
    installPostgres();
    bin = findBinDir();
    if (!bin) throw new Error('apt-get install postgresql did not provide /usr/lib/postgresql/*/bin/initdb');
  }
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'baton-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  chmodSync(dir, 0o777);
  // initdb refuses to run as root: run the server as the `postgres` user then.
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const as = (command: string, args: string[]) =>
    asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin!, command), ...args], { stdio: 'pipe' }) : execFileSync(join(bin!, command), args, { stdio: 'pipe' });
  as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  let port = 0;
  for (let attempt = 0; attempt < 5; attempt++) {
    port = await freePort();
    try {
      as('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '30', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
      break;
    } catch (error) {
      if (attempt === 4) throw new Error(`PostgreSQL did not start: ${String(error)}`);
    }
  }
  let stopped = false;
  return {
    port,
    connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
