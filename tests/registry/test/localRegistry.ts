/**
 * A throwaway npm registry (Verdaccio) on a loopback port: its storage in a temporary folder,
 * `@baton/*` served only from what is published to it, everything else proxied to the npm registry
 * the user's npm is set up with. Stopped by `stop()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

export interface LocalRegistry {
  url: string;
  /** An npm user config that points at this registry and carries a publish token. */
  npmrc: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitUntilUp(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}:\n${log()}`);
    try {
      const response = await fetch(`${url}-/ping`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`verdaccio did not answer on ${url} within 60 s:\n${log()}`);
}

/**
 * Native modules (better-sqlite3, which the hitl-state README installs) build against the headers of
 * the Node that runs them. node-gyp downloads those from nodejs.org unless `nodedir` names a Node
 * install that has them: the running Node's own prefix does when it was installed from a release
 * tarball, actions/setup-node or a distribution package (`<prefix>/include/node`), as the workspace's
 * own install does. This config replaces the user's, so it says it again; no download, no network
 * beyond the registry.
 */
function nodedirLine(): string {
  const configured = process.env.npm_config_nodedir;
  if (configured !== undefined && configured !== '') return `nodedir=${configured}\n`;
  const prefix = dirname(dirname(process.execPath));
  return existsSync(join(prefix, 'include', 'node', 'common.gypi')) ? `nodedir=${prefix}\n` : '';
}

export async function startLocalRegistry(folder: string, uplink: string): Promise<LocalRegistry> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const storage = join(folder, 'storage');
  mkdirSync(storage, { recursive: true });
  const config = join(folder, 'config.yaml');
  writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(storage)}`,
      `auth:`,
      `  htpasswd:`,
      `    file: ${JSON.stringify(join(folder, 'htpasswd'))}`,
      `    max_users: 10`,
      `uplinks:`,
      `  npmjs:`,
      `    url: ${JSON.stringify(uplink)}`,
      `    timeout: 60s`,
      `    maxage: 30m`,
      `packages:`,
      `  '@baton/*':`,
      `    access: $all`,
      `    publish: $authenticated`,
      `  '**':`,
      `    access: $all`,
      `    publish: $authenticated`,
      `    proxy: npmjs`,
      `server:`,
      `  keepAliveTimeout: 60`,
      `max_body_size: 200mb`,
      `log: { type: stdout, format: pretty, level: warn }`,
      `web: { enable: false }`,
      `security: { api: { legacy: true } }`,
      '',
    ].join('\n'),
  );

  const bin = join(dirname(createRequire(import.meta.url).resolve('verdaccio/package.json')), 'bin', 'verdaccio');
  const child = spawn(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr!.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  try {
    await waitUntilUp(url, child, () => output);
    // Register a user: the answer carries the token npm publishes with.
    const response = await fetch(`${url}-/user/org.couchdb.user:baton`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'baton', password: 'baton-release-test', email: 'release@example.com', type: 'user' }),
    });
    const body = (await response.json()) as { token?: string };
    if (!response.ok || body.token === undefined) throw new Error(`could not create a user on verdaccio (${response.status}): ${JSON.stringify(body)}`);
    const npmrc = join(folder, 'npmrc');
    // @baton/* from here; third-party packages from the registry npm is set up with (through npm's
    // own cache, so repeated runs stay fast), as the registry's uplink would serve them.
    writeFileSync(npmrc, `@baton:registry=${url}\nregistry=${uplink}\n//127.0.0.1:${port}/:_authToken=${body.token}\n${nodedirLine()}`);
    return { url, npmrc, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
