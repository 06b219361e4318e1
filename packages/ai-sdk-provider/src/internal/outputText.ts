import { UserError, type AgentOutputItem, type OutputText } from '@baton/types';

/**
 * Applies `transform` to the finished assistant text of a response. The text of one answer may be
 * spread over several messages (reasoning between its parts, as Anthropic interleaved thinking and
 * Gemini thought parts do): each run of assistant text that only reasoning interrupts is joined,
 * transformed once, and cut back into its parts at their original lengths (the last part takes
 * whatever remains), so a transform that extracts JSON sees the whole JSON. A tool call or any other
 * item ends a run. The transform must return a string: anything else is a `UserError`.
 */
export async function transformOutputText(output: AgentOutputItem[], transform: (text: string) => string | Promise<string>): Promise<void> {
  let run: OutputText[] = [];
  const flush = async () => {
    if (run.length === 0) return;
    const parts = run;
    run = [];
    const lengths = parts.map((part) => part.text.length);
    const text = await transform(parts.map((part) => part.text).join(''));
    if (typeof text !== 'string') throw new UserError(`transformOutputText must return a string; it returned ${text === null ? 'null' : typeof text}.`);
    let offset = 0;
    parts.forEach((part, index) => {
      const end = index === parts.length - 1 ? text.length : Math.min(text.length, offset + (lengths[index] ?? 0));
      part.text = text.slice(offset, end);
      offset = end;
    });
  };
  for (const item of output) {
    if (item.type === 'message' && item.role === 'assistant') {
      for (const part of item.content) if (part.type === 'output_text') run.push(part);
    } else if (item.type !== 'reasoning') {
      await flush();
    }
  }
  await flush();
}
