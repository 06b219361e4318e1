import { UserError } from '@baton/core';

/** Construction-time checks: a wrong option fails at once with a `UserError` naming the field. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

export function optionalFunction<F>(value: unknown, field: string): F | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw new UserError(`${field} must be a function, got ${describeValue(value)}.`);
  return value as F;
}

export function optionalNonEmptyString(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new UserError(`${field} must be a non-empty string, got ${typeof value === 'string' ? 'an empty string' : describeValue(value)}.`);
  }
  return value;
}

export function positiveInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new UserError(`${field} must be a positive integer, got ${typeof value === 'number' ? String(value) : describeValue(value)}.`);
  }
  return value;
}
