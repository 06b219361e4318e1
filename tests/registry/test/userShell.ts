/**
 * Commands run as a user runs them: in a shell without what pnpm and vitest put in the environment
 * for the monorepo.
 */
import { execFile } from 'node:child_process';

export interface Output {
  stdout: string;
  stderr: string;
}

export function exec(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeout = 240_000): Promise<Output> {
  return new Promise((resolvePromise, reject) => {
    execFile(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`\`${[file, ...args].join(' ')}\` failed in ${cwd}: ${error.message}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
      } else {
        resolvePromise({ stdout, stderr });
      }
    });
  });
}

/**
 * The environment of a user's shell: without what pnpm and vitest put there for the monorepo
 * (lifecycle and package variables, pnpm-only settings, NODE_PATH / NODE_OPTIONS). npm's own
 * settings are replaced by the throwaway registry's user config.
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(pnpm_|PNPM_|npm_|NPM_CONFIG_|VITEST|NODE_PATH$|NODE_OPTIONS$|OPENAI_)/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...extra };
}

/** The registry the user's npm is set up with: the throwaway registry's uplink for third-party packages. */
export function userRegistry(): string {
  const configured = process.env.npm_config_registry;
  return configured !== undefined && /^https?:\/\//.test(configured) ? configured : 'https://registry.npmjs.org/';
}
