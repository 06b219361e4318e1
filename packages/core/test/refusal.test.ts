import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '@baton/testing';
import { ModelRefusalError, type AssistantMessageItem } from '@baton/types';
import { Agent, run } from '../src/index.js';

const refusing = (content: AssistantMessageItem['content']): AssistantMessageItem => ({ type: 'message', role: 'assistant', status: 'completed', content });
const refusalOnly = refusing([{ type: 'refusal', refusal: 'I cannot help with that.' }]);

describe('a model refusal', () => {
  it('fails a text agent’s run with ModelRefusalError when the message has no text', async () => {
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[refusalOnly]]) });
    await expect(run(agent, 'x')).rejects.toBeInstanceOf(ModelRefusalError);
  });

  it('is answered by the default error handler, in history unless it says otherwise', async () => {
    for (const includeInHistory of [true, false]) {
      const agent = new Agent({ name: 'A', model: new ScriptedModel([[refusalOnly]]) });
      const result = await run(agent, 'x', {
        errorHandlers: {
          default: ({ error }) => {
            expect(error).toBeInstanceOf(ModelRefusalError);
            return { finalOutput: 'safe fallback', includeInHistory };
          },
        },
      });
      expect(result.finalOutput).toBe('safe fallback');
      expect(result.newItems.filter((item) => item.type === 'message_output_item')).toHaveLength(includeInHistory ? 2 : 1);
    }
  });

  it('beside text is not a refusal: the text is the answer', async () => {
    const mixed = refusing([
      { type: 'output_text', text: 'Partly: ' },
      { type: 'refusal', refusal: 'not the rest' },
    ]);
    const result = await run(new Agent({ name: 'A', model: new ScriptedModel([[mixed]]) }), 'x');
    expect(result.finalOutput).toBe('Partly: ');
  });
});
