import { UserError } from '@baton/types';

/**
 * A Node built-in module, reached when a Node-only feature is first used (never at load, so core
 * loads in browsers and other runtimes). `feature` names what needs it, for the error elsewhere.
 */
export function nodeBuiltin<T>(id: string, feature: string): T {
  const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (typeof getBuiltinModule !== 'function') throw new UserError(`${feature} needs Node.js 20.16 or later (it loads ${id}).`);
  return getBuiltinModule(id) as T;
}
