type Raw = Record<string, unknown>;

/** An id for a chunk that has none of its own: `<prefix>-<uuid>`. */
export function chunkId(prefix: string): string {
  return `${prefix}-${globalThis.crypto.randomUUID()}`;
}

/** The tool's name as a UI shows it: `namespace.name`, or the name when the namespace repeats it; else the item type (`computer_call`, ...). */
export function toolNameOf(raw: Raw): string {
  const name = typeof raw.name === 'string' && raw.name !== '' ? raw.name : undefined;
  const namespace = typeof raw.namespace === 'string' && raw.namespace !== '' ? raw.namespace : undefined;
  if (name === undefined) return String(raw.type ?? 'tool');
  return namespace === undefined || namespace === name ? name : `${namespace}.${name}`;
}

export function toolCallIdOf(raw: Raw, toolName: string): string {
  const id = (typeof raw.callId === 'string' && raw.callId) || (typeof raw.id === 'string' && raw.id);
  return id || `${toolName}-${chunkId('call')}`;
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { raw: text };
  }
}

/** A tool call's input for the UI: parsed JSON arguments (`{ raw }` when they are not JSON), a program's code, or the action of computer / shell / apply-patch calls. */
export function toolInputOf(raw: Raw): { toolCallId: string; toolName: string; input: unknown } | undefined {
  const toolName = toolNameOf(raw);
  const toolCallId = toolCallIdOf(raw, toolName);
  switch (raw.type) {
    case 'function_call':
      return typeof raw.arguments === 'string' ? { toolCallId, toolName, input: parseArguments(raw.arguments) } : undefined;
    case 'program':
      return typeof raw.code === 'string' ? { toolCallId, toolName: 'programmatic_tool_calling', input: { code: raw.code } } : undefined;
    case 'hosted_tool_call':
      return { toolCallId, toolName, input: typeof raw.arguments === 'string' ? parseArguments(raw.arguments) : {} };
    case 'computer_call':
    case 'shell_call':
      return { toolCallId, toolName, input: raw.action };
    case 'apply_patch_call':
      return { toolCallId, toolName, input: raw.operation };
    default:
      return undefined;
  }
}
