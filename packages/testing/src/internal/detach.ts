/**
 * A copy of `value` whose data containers (plain objects, arrays, array buffers and their views)
 * are new, so later changes to the original do not reach it and changes to the copy do not reach
 * the original. Everything else keeps its identity: functions, signals, class instances. Shared
 * references and cycles are kept inside the copy. Plain objects from another JavaScript realm
 * (`node:vm`) count as plain.
 */
export function detach<T>(value: T): T {
  return copy(value, new WeakMap()) as T;
}

function copy(value: unknown, copies: WeakMap<object, unknown>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (copies.has(value)) return copies.get(value);
  if (isBuffer(value)) return remember(copies, value, value.slice(0));
  if (ArrayBuffer.isView(value)) return copyView(value, copies);
  if (Array.isArray(value)) {
    const out: unknown[] = remember(copies, value, []);
    for (const entry of value) out.push(copy(entry, copies));
    return out;
  }
  if (!isPlainObject(value)) return value;
  const out = remember(copies, value, Object.create(Object.getPrototypeOf(value)) as Record<PropertyKey, unknown>);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (!descriptor?.enumerable) continue;
    // defineProperty, not assignment: an own `__proto__` key stays an own key.
    Object.defineProperty(out, key, { value: copy((value as Record<PropertyKey, unknown>)[key], copies), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function copyView(view: ArrayBufferView, copies: WeakMap<object, unknown>): ArrayBufferView {
  const buffer = copy(view.buffer, copies) as ArrayBufferLike;
  const out =
    tagOf(view) === 'DataView'
      ? new DataView(buffer, view.byteOffset, view.byteLength)
      : new (view.constructor as new (buffer: ArrayBufferLike, offset: number, length: number) => ArrayBufferView)(
          buffer,
          view.byteOffset,
          (view as unknown as { length: number }).length,
        );
  return remember(copies, view, out);
}

function remember<T>(copies: WeakMap<object, unknown>, original: object, out: T): T {
  copies.set(original, out);
  return out;
}

function isBuffer(value: object): value is ArrayBuffer {
  const tag = tagOf(value);
  return tag === 'ArrayBuffer' || tag === 'SharedArrayBuffer';
}

function tagOf(value: object): string {
  return Object.prototype.toString.call(value).slice(8, -1);
}

const objectSource = Function.prototype.toString.call(Object);

/** `{}`, `Object.create(null)`, or an object literal of another realm (its `Object` has the same native source). */
function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype === null) return true;
  const ctor: unknown = Object.prototype.hasOwnProperty.call(prototype, 'constructor') ? (prototype as { constructor: unknown }).constructor : undefined;
  return typeof ctor === 'function' && Function.prototype.toString.call(ctor) === objectSource;
}
