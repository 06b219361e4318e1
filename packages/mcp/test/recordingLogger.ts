import type { Logger } from '@baton/core';

/** A logger (the `logger` option of a server) that keeps what it is told, one line per message. */
export function recordingLogger(): Logger & { lines: string[]; warnings(): string[] } {
  const lines: string[] = [];
  return {
    namespace: 'test',
    lines,
    warnings: () => lines.filter((line) => line.startsWith('warn: ')).map((line) => line.slice('warn: '.length)),
    debug: (message) => void lines.push(`debug: ${message}`),
    warn: (message) => void lines.push(`warn: ${message}`),
    error: (message) => void lines.push(`error: ${message}`),
    dontLogModelData: false,
    dontLogToolData: false,
  };
}
