import { UserError } from '@baton/types';

/** Construction-time checks that name the offending field. */
export function requireFunction<F extends (...args: never[]) => unknown>(value: F | unknown, field: string): F {
  if (typeof value !== 'function') throw new UserError(`${field} must be a function, got ${typeName(value)}.`);
  return value as F;
}

export function requireBooleanOrFunction<T extends boolean | ((...args: never[]) => unknown)>(value: T, field: string): T {
  if (typeof value !== 'boolean' && typeof value !== 'function') {
    throw new UserError(`${field} must be a boolean or a function, got ${typeName(value)}.`);
  }
  return value;
}

export function requireArray<T>(value: T[] | undefined, field: string): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new UserError(`${field} must be an array, got ${typeName(value)}.`);
  return value;
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
