import type { RetryDecision, RetryPolicy, RetryPolicyContext } from '@baton/types';

/**
 * Ready-made `modelSettings.retry.policy` functions, combined with `any` / `all`:
 *
 * ```ts
 * modelSettings: { retry: { maxRetries: 3, policy: retryPolicies.any(retryPolicies.networkError(), retryPolicies.httpStatus([429, 503])) } }
 * ```
 *
 * A decision from `providerSuggested` may carry a veto (the provider said "do not retry") that
 * `any` / `all` respect: an outright veto wins; a veto only because replaying is unsafe gives way
 * to another policy that approves the unsafe replay (`approveUnsafeReplay`).
 */
export const retryPolicies = {
  /** Never retry. */
  never(): RetryPolicy {
    return () => false;
  },
  /** Follow the provider's advice (`Model.getRetryAdvice`): retry when it suggests so, never when it says no. */
  providerSuggested(): RetryPolicy {
    return (context) => {
      const advice = context.providerAdvice;
      const replaySafety = replaySafetyOf(context);
      if (advice?.suggested === false) {
        return vetoed({ retry: false, ...reasonOf(advice.reason) }, replaySafety === 'unsafe' ? 'replay' : 'hard');
      }
      if (advice?.suggested !== true) return false;
      const delayMs = advice.retryAfterMs ?? context.normalized.retryAfterMs;
      const decision = { retry: true, ...(delayMs !== undefined ? { delayMs } : {}), ...reasonOf(advice.reason) };
      return replaySafety === 'safe' ? replaySafe(decision) : decision;
    };
  },
  /** Retry transport failures (connection refused or reset, DNS, fetch failed, ...). */
  networkError(): RetryPolicy {
    return ({ normalized }) => normalized.isNetworkError;
  },
  /** Retry these HTTP statuses. */
  httpStatus(statuses: readonly number[]): RetryPolicy {
    const allowed = new Set(statuses);
    return ({ normalized }) => normalized.statusCode !== undefined && allowed.has(normalized.statusCode);
  },
  /** Retry when the server said when to (`Retry-After`), after that delay. */
  retryAfter(): RetryPolicy {
    return ({ normalized }) => (normalized.retryAfterMs === undefined ? false : { retry: true, delayMs: normalized.retryAfterMs });
  },
  /** Retry when any policy says so (the first retrying decision, preferring one the provider marked replay-safe). */
  any(...policies: RetryPolicy[]): RetryPolicy {
    return async (context) => {
      let chosen: Decision | undefined;
      let lastDeclined: Decision | undefined;
      let replayVeto: Decision | undefined;
      for (const policy of policies) {
        const raw = await policy(context);
        const decision = decisionOf(raw);
        const veto = vetoOf(decision);
        if (veto === 'hard') return decision;
        if (veto === 'replay') {
          replayVeto ??= decision;
        } else if (decision.retry) {
          const approveUnsafeReplay = chosen?.approveUnsafeReplay === true || decision.approveUnsafeReplay === true;
          if (!chosen || (isReplaySafe(decision) && !isReplaySafe(chosen))) chosen = decision;
          if (approveUnsafeReplay && !chosen.approveUnsafeReplay) chosen = copyMarks(chosen, { ...chosen, approveUnsafeReplay: true });
        } else if (typeof raw !== 'boolean') {
          lastDeclined = decision;
        }
      }
      if (replayVeto) return chosen ? overrideReplayVeto(replayVeto, chosen) : replayVeto;
      return chosen ?? lastDeclined ?? false;
    };
  },
  /** Retry only when every policy says so (the last delay and reason given win). */
  all(...policies: RetryPolicy[]): RetryPolicy {
    return async (context) => {
      if (policies.length === 0) return false;
      let merged: Decision = { retry: true };
      let replayVeto: Decision | undefined;
      for (const policy of policies) {
        const decision = decisionOf(await policy(context));
        const veto = vetoOf(decision);
        if (veto === 'hard') return decision;
        if (veto === 'replay') {
          replayVeto ??= decision;
          continue;
        }
        if (!decision.retry) return false;
        const next: Decision = { ...merged };
        if (decision.delayMs !== undefined) next.delayMs = decision.delayMs;
        if (decision.reason !== undefined) next.reason = decision.reason;
        if (decision.approveUnsafeReplay) next.approveUnsafeReplay = true;
        merged = isReplaySafe(merged) || isReplaySafe(decision) ? replaySafe(next) : next;
      }
      return replayVeto ? overrideReplayVeto(replayVeto, merged) : merged;
    };
  },
};

type Decision = Exclude<RetryDecision, boolean>;

// Marks carried by decisions between policies (non-enumerable, so a decision still prints plainly).
const VETO = Symbol('baton.retryVeto');
const REPLAY_SAFE = Symbol('baton.replaySafe');

export function decisionOf(decision: RetryDecision): Decision {
  return typeof decision === 'boolean' ? { retry: decision } : decision;
}

/** `'hard'`: the provider said no. `'replay'`: no only because replaying is unsafe; an explicit approval may override it. */
function vetoOf(decision: Decision): 'hard' | 'replay' | undefined {
  return (decision as { [VETO]?: 'hard' | 'replay' })[VETO];
}

/** The provider marked this retry safe to replay (it may then retry a stateful or unsafe request). */
export function isReplaySafe(decision: Decision): boolean {
  return (decision as { [REPLAY_SAFE]?: boolean })[REPLAY_SAFE] === true;
}

function vetoed(decision: Decision, kind: 'hard' | 'replay'): Decision {
  return Object.defineProperty({ ...decision }, VETO, { value: kind });
}

function replaySafe(decision: Decision): Decision {
  return Object.defineProperty({ ...decision }, REPLAY_SAFE, { value: true });
}

function copyMarks(from: Decision, to: Decision): Decision {
  return isReplaySafe(from) ? replaySafe(to) : to;
}

function overrideReplayVeto(veto: Decision, approving: Decision): Decision {
  if (!approving.retry || !approving.approveUnsafeReplay) return veto;
  const reason = approving.reason ?? veto.reason;
  const resolved: Decision = { retry: true, ...(approving.delayMs !== undefined ? { delayMs: approving.delayMs } : {}), ...reasonOf(reason), approveUnsafeReplay: true };
  return copyMarks(approving, resolved);
}

function replaySafetyOf(context: RetryPolicyContext): 'safe' | 'unsafe' | 'unknown' {
  return context.replaySafety ?? context.providerAdvice?.replaySafety ?? 'unknown';
}

function reasonOf(reason: string | undefined): { reason?: string } {
  return reason === undefined ? {} : { reason };
}
