import { UserError } from '@baton/types';

/** Construction-time checks: mistakes surface as a `UserError` naming the field, before anything runs. */

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

export function requireOptions(value: unknown, owner: string): void {
  if (typeof value !== 'object' || value === null) throw new UserError(`${owner}: expected an options object, got ${typeName(value)}.`);
}

export function requireName(value: unknown, owner: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new UserError(`${owner}: \`name\` must be a non-empty string, got ${typeName(value)}.`);
  }
  return value;
}

export function requireFunction<F>(value: unknown, field: string, owner: string): F {
  if (typeof value !== 'function') throw new UserError(`${owner}: \`${field}\` must be a function, got ${typeName(value)}.`);
  return value as F;
}

export function optionalBoolean(value: unknown, field: string, owner: string): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') throw new UserError(`${owner}: \`${field}\` must be a boolean, got ${typeName(value)}.`);
  return value;
}

export function optionalPositiveNumber(value: unknown, field: string, owner: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new UserError(`${owner}: \`${field}\` must be a positive number, got ${typeof value === 'number' ? value : typeName(value)}.`);
  }
  return value;
}

export function optionalString(value: unknown, field: string, owner: string): string | undefined {
  if (value !== undefined && typeof value !== 'string') throw new UserError(`${owner}: \`${field}\` must be a string, got ${typeName(value)}.`);
  return value;
}
