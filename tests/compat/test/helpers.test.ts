import { afterEach, describe, expect, it, vi } from 'vitest';
import { onBoth, outcomeOf } from './sdks.js';

// Standalone helpers of the reference a ported program may call directly.

describe('tool guardrail helpers (same on both SDKs)', () => {
  const verdicts = (sdk: any) => ({
    allow: { name: 'allow', run: () => sdk.ToolGuardrailFunctionOutputFactory.allow({ checked: true }) },
    reject: { name: 'reject', run: () => sdk.ToolGuardrailFunctionOutputFactory.rejectContent('not this one') },
    stop: { name: 'stop', run: () => sdk.ToolGuardrailFunctionOutputFactory.throwException({ why: 'secret' }) },
  });
  const call = { type: 'function_call', callId: 'c1', name: 'lookup', arguments: '{}' };

  it.each([
    ['all allow', ['allow', 'allow']],
    ['the first rejection stops', ['allow', 'reject', 'stop']],
    ['an exception trips', ['allow', 'stop', 'reject']],
  ])('input guardrails: %s', async (_label, names) => {
    const both = await onBoth(async ({ sdk }) => {
      const s = sdk as any;
      const defined = s.resolveToolInputGuardrails(names.map((name) => verdicts(s)[name as 'allow']));
      const results: unknown[] = [];
      const context = new s.RunContext({});
      const outcome = await outcomeOf(s.runToolInputGuardrails({ guardrails: defined, context, agent: new s.Agent({ name: 'A' }), toolCall: call, onResult: (r: unknown) => results.push(r) }));
      return { types: defined.map((g: { type: string }) => g.type), outcome: outcome.ok ? outcome.value : outcome.name, results };
    });
    expect(both.baton).toEqual(both.reference);
  });

  it.each([
    ['all allow', ['allow']],
    ['a rejection replaces the output', ['reject', 'stop']],
    ['an exception trips', ['stop']],
  ])('output guardrails: %s', async (_label, names) => {
    const both = await onBoth(async ({ sdk }) => {
      const s = sdk as any;
      const defined = s.resolveToolOutputGuardrails(names.map((name) => verdicts(s)[name as 'allow']));
      const results: unknown[] = [];
      const outcome = await outcomeOf(
        s.runToolOutputGuardrails({ guardrails: defined, context: new s.RunContext({}), agent: new s.Agent({ name: 'A' }), toolCall: call, toolOutput: 'raw', onResult: (r: unknown) => results.push(r) }),
      );
      return { outcome: outcome.ok ? outcome.value : outcome.name, results };
    });
    expect(both.baton).toEqual(both.reference);
  });
});

describe('getLogger (same on both SDKs)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('namespace and the sensitive-data switches: environment first, then setSensitiveDataLoggingEnabled over it', async () => {
    const both = await onBoth(async ({ sdk }) => {
      const s = sdk as any;
      const logger = s.getLogger('my-app:agents');
      const seen: unknown[] = [logger.namespace, s.getLogger().namespace, logger.dontLogModelData, logger.dontLogToolData];
      vi.stubEnv('OPENAI_AGENTS_DONT_LOG_MODEL_DATA', 'false');
      vi.stubEnv('OPENAI_AGENTS_DONT_LOG_TOOL_DATA', '1');
      seen.push(logger.dontLogModelData, logger.dontLogToolData);
      vi.unstubAllEnvs();
      s.setSensitiveDataLoggingEnabled(true);
      seen.push(logger.dontLogModelData, logger.dontLogToolData);
      seen.push((await outcomeOf(Promise.resolve().then(() => s.setSensitiveDataLoggingEnabled('yes')))).ok);
      seen.push(logger.dontLogModelData);
      s.setSensitiveDataLoggingEnabled(false);
      seen.push(logger.dontLogModelData, typeof logger.debug, typeof logger.warn, typeof logger.error);
      return seen;
    });
    expect(both.baton).toEqual(both.reference);
  });
});

describe('getLogger on Baton', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('debug lines appear only for namespaces DEBUG enables', async () => {
    const { getLogger } = await import('@baton/agents');
    const lines: unknown[][] = [];
    vi.spyOn(console, 'debug').mockImplementation((...args: unknown[]) => void lines.push(args));
    vi.stubEnv('DEBUG', 'openai-agents:*,-openai-agents:noisy');
    getLogger('openai-agents:core').debug('turn %d', 1);
    getLogger('openai-agents:noisy').debug('hidden');
    getLogger('other').debug('hidden');
    vi.stubEnv('DEBUG', 'other');
    getLogger('other').debug('now shown');
    expect(lines).toEqual([['openai-agents:core turn %d', 1], ['other now shown']]);
  });
});
