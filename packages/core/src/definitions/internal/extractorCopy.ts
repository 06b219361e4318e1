/**
 * What a `customDataExtractor` is handed is a copy (a structured clone; the value itself when it
 * cannot be cloned, as the reference does), so it cannot change the run's items.
 */
export function copyForExtractor<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}
