import { UserError } from '@baton/types';

/** PostgreSQL's longest identifier in bytes (NAMEDATALEN - 1): a longer name is silently cut to it. */
export const MAX_IDENTIFIER_BYTES = 63;

/** The longest prefix that keeps every `prefix + suffix` within PostgreSQL's identifiers. */
export function maxTablePrefixLength(suffixes: Readonly<Record<string, string>>): number {
  return MAX_IDENTIFIER_BYTES - Math.max(...Object.values(suffixes).map((suffix) => suffix.length));
}

/**
 * SQL table names built from a prefix: letters, digits and `_` only (not starting with a digit), and
 * short enough that every name fits PostgreSQL's 63-byte identifiers. Cut to 63 bytes, two names with
 * a long shared prefix would name one table. The same limit applies to SQLite, so a prefix works on both.
 */
export function prefixedTableNames<K extends string>(prefix: unknown, suffixes: Readonly<Record<K, string>>): Record<K, string> {
  if (typeof prefix !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(prefix)) {
    throw new UserError(`tablePrefix must be letters, digits and _ (not starting with a digit), got ${JSON.stringify(prefix) ?? String(prefix)}.`);
  }
  const entries = Object.entries(suffixes) as Array<[K, string]>;
  const max = maxTablePrefixLength(suffixes);
  if (prefix.length > max) {
    const longest = entries.reduce((a, b) => (b[1].length > a[1].length ? b : a))[1];
    throw new UserError(
      `tablePrefix ${JSON.stringify(prefix)} is ${prefix.length} characters; at most ${max} are allowed, so that every table name ` +
        `(the longest is "${prefix}${longest}", ${prefix.length + longest.length} characters) fits PostgreSQL's ${MAX_IDENTIFIER_BYTES}-byte identifiers: ` +
        'a longer name is cut short, and two tables would become one.',
    );
  }
  return Object.fromEntries(entries.map(([key, suffix]) => [key, `${prefix}${suffix}`])) as Record<K, string>;
}
