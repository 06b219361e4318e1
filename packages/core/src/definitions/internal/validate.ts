import { UserError } from '@baton/types';

/**
 * Construction-time checks, shared by core and Baton's feature packages (through
 * `@baton/core/internal`): a wrong option fails at once with a `UserError` naming the field.
 * `field` is the whole label, for example ``tool "search": `execute` ``.
 */

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

export function requireOptions(value: unknown, owner: string): void {
  if (typeof value !== 'object' || value === null) throw new UserError(`${owner}: expected an options object, got ${typeName(value)}.`);
}

export function requireFunction<F>(value: unknown, field: string): F {
  if (typeof value !== 'function') throw new UserError(`${field} must be a function, got ${typeName(value)}.`);
  return value as F;
}

export function optionalFunction<F>(value: unknown, field: string): F | undefined {
  return value === undefined ? undefined : requireFunction<F>(value, field);
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

export function requireNonEmptyString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new UserError(`${field} must be a non-empty string, got ${typeof value === 'string' ? 'an empty string' : typeName(value)}.`);
  }
  return value;
}

export function optionalNonEmptyString(value: unknown, field: string): string | undefined {
  return value === undefined ? undefined : requireNonEmptyString(value, field);
}

export function optionalString(value: unknown, field: string): string | undefined {
  if (value !== undefined && typeof value !== 'string') throw new UserError(`${field} must be a string, got ${typeName(value)}.`);
  return value;
}

export function optionalBoolean(value: unknown, field: string): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') throw new UserError(`${field} must be a boolean, got ${typeName(value)}.`);
  return value;
}

export function optionalPositiveNumber(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new UserError(`${field} must be a positive number, got ${typeof value === 'number' ? value : typeName(value)}.`);
  }
  return value;
}

export function positiveInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new UserError(`${field} must be a positive integer, got ${typeof value === 'number' ? String(value) : typeName(value)}.`);
  }
  return value;
}
