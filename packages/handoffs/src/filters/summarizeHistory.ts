import { Agent, UserError, run, type AgentInputItem, type HandoffInputData, type HandoffInputFilter, type Runner } from '@baton/core';
import { historyItems, protocolItemOf, withItems } from '../internal/items.js';
import { renderTranscript } from '../internal/transcript.js';
import { typeName } from '@baton/core/internal';

export interface SummarizeHistoryOptions {
  /** Runs the summarizer; defaults to core's `run` (the default runner). Pass a `Runner` for its provider and settings. */
  runner?: Runner;
  /** Put before the transcript in the summarizer's input. */
  prompt?: string;
  /** The role of the summary message the next agent receives. Defaults to `'user'`. */
  role?: 'user' | 'system';
  /** The summary message's text; defaults to a short heading followed by the summary. */
  formatSummary?: (summary: string) => string;
}

const DEFAULT_PROMPT =
  'Summarise the conversation below for the agent who takes it over next. Keep what the user asked for, ' +
  'the facts and identifiers mentioned, what has been done and what is still open. Answer with the summary only.';

/**
 * A handoff input filter that asks `summarizer` to summarise the conversation so far (rendered as a
 * transcript in one user message) and gives the next agent that summary as its only history: one
 * message replaces the input history, the items before the handoff and this turn's items. The
 * summarizer runs with the run's context object; its token usage is added to the run's usage.
 */
export function summarizeHistory(summarizer: Agent<any, any>, options: SummarizeHistoryOptions = {}): HandoffInputFilter {
  if (!(summarizer instanceof Agent)) throw new UserError(`summarizeHistory(): the summarizer must be an Agent, got ${typeName(summarizer)}.`);
  if (typeof options !== 'object' || options === null) throw new UserError(`summarizeHistory(): options must be an object, got ${typeName(options)}.`);
  const prompt = options.prompt ?? DEFAULT_PROMPT;
  if (typeof prompt !== 'string') throw new UserError(`summarizeHistory(): \`prompt\` must be a string, got ${typeName(prompt)}.`);
  const role = options.role ?? 'user';
  if (role !== 'user' && role !== 'system') throw new UserError(`summarizeHistory(): \`role\` must be 'user' or 'system', got ${JSON.stringify(role)}.`);
  const format = options.formatSummary ?? ((summary: string) => `Summary of the conversation so far:\n${summary}`);
  if (typeof format !== 'function') throw new UserError(`summarizeHistory(): \`formatSummary\` must be a function, got ${typeName(format)}.`);
  if (options.runner !== undefined && typeof options.runner?.run !== 'function') {
    throw new UserError(`summarizeHistory(): \`runner\` must be a Runner, got ${typeName(options.runner)}.`);
  }

  return async (data: HandoffInputData): Promise<HandoffInputData> => {
    const items = [...historyItems(data.inputHistory), ...[...data.preHandoffItems, ...data.newItems].map(protocolItemOf)].filter(
      (item): item is AgentInputItem => item !== undefined,
    );
    const transcript = renderTranscript(items);
    if (transcript === '') return data;
    const input = `${prompt}\n\n<conversation>\n${transcript}\n</conversation>`;
    const runOptions = data.runContext ? { context: data.runContext.context } : {};
    const result = options.runner ? await options.runner.run(summarizer, input, runOptions) : await run(summarizer, input, runOptions);
    data.runContext?.usage.add(result.usage);
    const output = result.finalOutput;
    if (output === undefined) {
      throw new UserError(`summarizeHistory(): the summarizer "${summarizer.name}" produced no final output (it paused for approval).`);
    }
    const summary = typeof output === 'string' ? output : JSON.stringify(output);
    const message: AgentInputItem = role === 'user' ? { role: 'user', content: format(summary) } : { role: 'system', content: format(summary) };
    return withItems(data, [message], [], []);
  };
}
