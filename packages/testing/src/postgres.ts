/**
 * `@baton/testing/postgres`: a throwaway PostgreSQL server for tests and offline examples: `initdb`
 * into a temp directory, then `pg_ctl start` on a free port on 127.0.0.1, as the `postgres` user when
 * running as root. When the server binaries are missing and we are root, they are installed with
 * apt-get first (Debian's `postgresql`). Nothing is skipped: without a server it fails with the reason.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PostgresServer {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres` (trust authentication). */
  connectionString: string;
  port: number;
  /** The same server's URL for another database name (created by whoever connects first, or by you). */
  urlFor(database: string): string;
  /** Stops the server but keeps its data, to simulate an outage; `start()` brings it back on the same port. */
  pause(): void;
  start(): void;
  /** Stops the server for good and deletes its data. */
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
  const startOn = (port: number) =>
    as('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '30', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  let port = 0;
  for (let attempt = 0; attempt < 5; attempt++) {
    port = await freePort();
    try {
      startOn(port);
      break;
    } catch (error) {
      if (attempt === 4) throw new Error(`PostgreSQL did not start: ${String(error)}`);
    }
  }
  let stopped = false;
  let running = true;
  const base = `postgresql://postgres@127.0.0.1:${port}`;
  return {
    port,
    connectionString: `${base}/postgres`,
    urlFor: (database) => `${base}/${encodeURIComponent(database)}`,
    pause() {
      if (!running || stopped) return;
      as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      running = false;
    },
    start() {
      if (running || stopped) return;
      startOn(port);
      running = true;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        if (running) as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
