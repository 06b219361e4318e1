import { UserError, type Computer, type ComputerProvider, type ComputerTool, type RunContextContract } from '@baton/types';
import { getLogger } from '../logger.js';

interface Resolved {
  readonly computer: Computer;
  readonly dispose: ComputerProvider['dispose'] | undefined;
  initialized: boolean;
}

/** The computers resolved for each run (keyed by its context), per tool. */
const byRun = new WeakMap<RunContextContract<any>, Map<ComputerTool<any, any>, Resolved>>();

function isProvider(config: unknown): config is ComputerProvider {
  return typeof config === 'object' && config !== null && typeof (config as { create?: unknown }).create === 'function' && !isComputer(config);
}

function isComputer(config: unknown): config is Computer {
  return typeof config === 'object' && config !== null && typeof (config as { screenshot?: unknown }).screenshot === 'function';
}

/**
 * The computer a run uses for a computer tool: the tool's own computer, or the one its initializer
 * made for this run (made once per run context, so two runs never share one). `initRun` is called
 * once per run, before its first use.
 */
export async function resolveComputer(tool: ComputerTool<any, any>, runContext: RunContextContract<any>): Promise<Computer> {
  let resolved = byRun.get(runContext);
  if (!resolved) byRun.set(runContext, (resolved = new Map()));
  let entry = resolved.get(tool);
  if (!entry) {
    const config = tool.computer as unknown;
    const provider = isProvider(config) ? config : undefined;
    const create = provider ? provider.create : typeof config === 'function' ? (config as ComputerProvider['create']) : undefined;
    const computer = create ? await create({ runContext }) : (config as Computer);
    if (!isComputer(computer)) throw new UserError(`The computer tool "${tool.name}" did not provide a computer instance (an object with screenshot(), click(), ...).`);
    entry = resolved.get(tool) ?? { computer, dispose: provider?.dispose, initialized: false };
    resolved.set(tool, entry);
  }
  if (!entry.initialized) {
    entry.initialized = true;
    await entry.computer.initRun?.(runContext);
  }
  return entry.computer;
}

/**
 * Ends the computers made for a run: each initializer's `dispose` is called (a failing one is
 * logged; the others still run), and a later run with the same context makes new ones.
 */
export async function disposeResolvedComputers(runContext: RunContextContract<any>): Promise<void> {
  const resolved = byRun.get(runContext);
  if (!resolved) return;
  byRun.delete(runContext);
  for (const entry of resolved.values()) {
    if (!entry.dispose) continue;
    try {
      await entry.dispose({ runContext, computer: entry.computer });
    } catch (error) {
      const logger = getLogger('openai-agents:core');
      logger.warn('Failed to dispose computer for run context:', logger.dontLogToolData ? typeof error : error);
    }
  }
}
