import type { ApplyPatchTool, Computer, ComputerTool, SerializedTool, ShellTool, Tool } from '@baton/types';

/** A tool the SDK runs on the host for the model: the shell, apply-patch and computer tools. */
export type LocalTool = ShellTool | ApplyPatchTool | ComputerTool<any, any>;

export function isLocalTool(tool: Tool<any>): tool is LocalTool {
  return tool.type === 'shell' || tool.type === 'apply_patch' || tool.type === 'computer';
}

/** Whether an agent's `tools` entry is a well-formed local tool (the one its kind needs is there). */
export function localToolProblem(tool: LocalTool): string | undefined {
  if (tool.type === 'apply_patch' && (typeof tool.editor !== 'object' || tool.editor === null)) return 'an apply_patch tool needs an `editor`';
  if (tool.type === 'computer' && !tool.computer) return 'a computer tool needs a `computer`';
  if (tool.type === 'shell' && (tool.environment === undefined || tool.environment.type === 'local') && typeof tool.shell?.run !== 'function') {
    return 'a local shell tool needs a `shell` with run()';
  }
  return undefined;
}

/**
 * A local tool as the model sees it. A computer tool names the display of the computer this run
 * uses (`computer`), when that computer states one.
 */
export function serializeLocalTool(tool: LocalTool, computer?: Computer): SerializedTool {
  switch (tool.type) {
    case 'shell':
      return { type: 'shell', name: tool.name, environment: tool.environment ?? { type: 'local' }, ...(tool.allowedCallers ? { allowedCallers: tool.allowedCallers } : {}) };
    case 'apply_patch':
      return { type: 'apply_patch', name: tool.name, ...(tool.allowedCallers ? { allowedCallers: tool.allowedCallers } : {}) };
    case 'computer': {
      const display = computer && typeof computer.environment === 'string' && Array.isArray(computer.dimensions) && computer.dimensions.length === 2;
      return { type: 'computer', name: tool.name, ...(display ? { environment: computer.environment, dimensions: computer.dimensions } : {}) };
    }
  }
}
