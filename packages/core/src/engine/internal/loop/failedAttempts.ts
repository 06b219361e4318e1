import { RequestUsage, Usage, type UsageData } from '@baton/types';

/**
 * The failed attempts of one model call, and what each was billed. A provider says what a failed
 * attempt cost as the error's `usage` (a failed, incomplete or truncated response); an attempt that
 * failed without one (a refused connection, a 429) still was one request. When a retry succeeds,
 * the response's usage carries every attempt before it (so `requests` counts the retries, as the
 * reference accounts it); when the call fails for good, only the usage the providers reported counts.
 */
export class FailedAttempts {
  readonly #usages: Array<Usage | undefined> = [];

  /** Records a failed attempt (its reported usage, if any) and rethrows its error. */
  readonly record: (cause: unknown) => never;

  constructor() {
    // Assigned, not a class field: the build's keepNames would name a field's function on every model call.
    this.record = (cause) => {
      this.#usages.push(reportedUsage(cause));
      throw cause;
    };
  }

  /** The usage of the call that succeeded after the failed attempts: theirs first, then its own. */
  foldInto(usage: UsageData): Usage {
    if (this.#usages.length === 0) return usage instanceof Usage ? usage : new Usage(usage);
    const final = new Usage(usage);
    const endpoint = final.requestUsageEntries?.[0]?.endpoint;
    const combined = new Usage();
    for (const failed of this.#usages) {
      combined.add(failed ?? new Usage({ requests: 1, requestUsageEntries: [new RequestUsage(endpoint === undefined ? {} : { endpoint })] }));
    }
    if (final.requestUsageEntries === undefined) final.requestUsageEntries = [requestEntryOf(final, endpoint)];
    combined.add(final);
    return combined;
  }

  /** What the failed attempts reported they cost, or undefined when none reported a usage. */
  known(): Usage | undefined {
    let combined: Usage | undefined;
    for (const failed of this.#usages) {
      if (failed === undefined) continue;
      (combined ??= new Usage()).add(failed);
    }
    return combined;
  }
}

/** The usage a provider attached to a failed attempt's error, when it is one. */
function reportedUsage(cause: unknown): Usage | undefined {
  const usage = (cause as { usage?: unknown } | null)?.usage;
  if (typeof usage !== 'object' || usage === null || typeof (usage as { requests?: unknown }).requests !== 'number') return undefined;
  return new Usage(usage as UsageData);
}

function requestEntryOf(usage: Usage, endpoint: string | undefined): RequestUsage {
  const entry = new RequestUsage({
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.totalTokens,
    ...(usage.inputTokensDetails[0] ? { inputTokensDetails: usage.inputTokensDetails[0] } : {}),
    ...(usage.outputTokensDetails[0] ? { outputTokensDetails: usage.outputTokensDetails[0] } : {}),
  });
  if (endpoint !== undefined) entry.endpoint = endpoint;
  return entry;
}
