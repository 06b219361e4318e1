import { RunStateError, formatJsonPath } from './runStateError.js';

/**
 * How deeply a serialized run state may nest (objects and arrays, the state itself being level 0).
 * Baton's own fields nest about ten levels; the rest is room for your context and tool data. A
 * deeper state is refused when read, before anything walks it recursively.
 */
export const MAX_RUN_STATE_DEPTH = 200;

interface Frame {
  readonly value: object;
  readonly depth: number;
  readonly parent: Frame | undefined;
  readonly key: string | number | undefined;
}

/**
 * One pass over parsed JSON, linear in its size: refuses nesting deeper than
 * `MAX_RUN_STATE_DEPTH` and a `__proto__` key anywhere (JSON.parse keeps it as an own key; copied
 * into an object it would replace the prototype). Paths are only built for the error.
 */
export function checkRunStateStructure(root: unknown): void {
  if (typeof root !== 'object' || root === null) return;
  const stack: Frame[] = [{ value: root, depth: 0, parent: undefined, key: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > MAX_RUN_STATE_DEPTH) {
      const path = pathOf(frame);
      throw new RunStateError('too_deep', `Invalid run state: nested deeper than ${MAX_RUN_STATE_DEPTH} levels at ${formatJsonPath(path)}.`, { path });
    }
    const { value } = frame;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const child: unknown = value[i];
        if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: frame.depth + 1, parent: frame, key: i });
      }
      continue;
    }
    for (const key of Object.keys(value)) {
      if (key === '__proto__') {
        const path = [...pathOf(frame), key];
        throw new RunStateError('prototype_key', `Invalid run state: a "__proto__" key at ${formatJsonPath(path)} is not allowed.`, { path });
      }
      const child = (value as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: frame.depth + 1, parent: frame, key });
    }
  }
}

function pathOf(frame: Frame): Array<string | number> {
  const path: Array<string | number> = [];
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}
