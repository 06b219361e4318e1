/**
 * The reference's logger: `getLogger(namespace)` writes debug lines when the `DEBUG` environment
 * variable enables the namespace (`DEBUG=openai-agents:*`, the same patterns as the `debug`
 * package: comma- or space-separated, `*` wildcards, `-` to exclude), and errors and warnings
 * always. `dontLogModelData` / `dontLogToolData` say whether model and tool data must be kept out of
 * logs: yes by default, unless `OPENAI_AGENTS_DONT_LOG_MODEL_DATA` / `..._TOOL_DATA` is `false` / `0`
 * or `setSensitiveDataLoggingEnabled(true)` was called.
 */
export interface Logger {
  namespace: string;
  debug: (message: string, ...args: unknown[]) => void;
  error: (message: string, ...args: unknown[]) => void;
  warn: (message: string, ...args: unknown[]) => void;
  readonly dontLogModelData: boolean;
  readonly dontLogToolData: boolean;
}

let sensitiveDataLogging: boolean | undefined;

/** Allows (or forbids) model and tool data in logs, over the environment variables. */
export function setSensitiveDataLoggingEnabled(enabled: boolean): void {
  if (typeof enabled !== 'boolean') {
    sensitiveDataLogging = false;
    throw new TypeError('Sensitive data logging can only be enabled or disabled with a boolean value.');
  }
  sensitiveDataLogging = enabled;
}

export function getLogger(namespace = 'openai-agents'): Logger {
  return {
    namespace,
    debug: (message, ...args) => {
      if (debugEnabled(namespace)) console.debug(`${namespace} ${message}`, ...args);
    },
    error: (message, ...args) => console.error(message, ...args),
    warn: (message, ...args) => console.warn(message, ...args),
    get dontLogModelData() {
      return suppresses('OPENAI_AGENTS_DONT_LOG_MODEL_DATA');
    },
    get dontLogToolData() {
      return suppresses('OPENAI_AGENTS_DONT_LOG_TOOL_DATA');
    },
  };
}

/** Read without importing `node:process`, so the logger works in browsers too (where nothing is enabled). */
function env(name: string): string | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
}

function suppresses(flag: string): boolean {
  if (sensitiveDataLogging !== undefined) return !sensitiveDataLogging;
  const value = env(flag);
  return !(value === 'false' || value === '0');
}

let compiledFor: string | undefined;
let patterns: { include: RegExp[]; exclude: RegExp[] } = { include: [], exclude: [] };

/** Whether `DEBUG` enables the namespace; the patterns are compiled again only when `DEBUG` changes. */
function debugEnabled(namespace: string): boolean {
  const debug = env('DEBUG') ?? '';
  if (debug !== compiledFor) {
    compiledFor = debug;
    patterns = { include: [], exclude: [] };
    for (const part of debug.split(/[\s,]+/).filter(Boolean)) {
      const excluded = part.startsWith('-');
      const source = (excluded ? part.slice(1) : part).replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*?');
      (excluded ? patterns.exclude : patterns.include).push(new RegExp(`^${source}$`));
    }
  }
  return !patterns.exclude.some((p) => p.test(namespace)) && patterns.include.some((p) => p.test(namespace));
}
