import { describe, expect, it } from 'vitest';
import { UserError, run } from '@baton/core';
import { composeInputFilters, keepLastItems, removeAllTools } from '../../src/index.js';
import { captureHandoffData, inputOf, triageScenario, typesOf, userMessage } from '../helpers.js';

describe('composeInputFilters', () => {
  it('applies the filters left to right', async () => {
    const data = await captureHandoffData('hi');
    // removing tools first leaves [hi, message]; keeping the last item then keeps the message
    const toolsFirst = await composeInputFilters(removeAllTools, keepLastItems(1))(data);
    expect([toolsFirst.inputHistory, typesOf(toolsFirst.newItems)]).toEqual([[], ['message_output_item']]);
    // the other way round keeps the handoff output, whose call is cut, so nothing is left
    const lastFirst = await composeInputFilters(keepLastItems(1), removeAllTools)(data);
    expect([lastFirst.inputHistory, lastFirst.preHandoffItems, lastFirst.newItems]).toEqual([[], [], []]);
  });

  it('works as a handoff’s filter in a run', async () => {
    const rewrite = composeInputFilters(removeAllTools, async (d) => ({ ...d, inputHistory: [userMessage('(redacted)')] }));
    const { triage, billingModel } = triageScenario({ filter: rewrite });
    await run(triage, 'my card number is 4111');
    expect(inputOf(billingModel.firstCall).map((item) => (item as { content: unknown }).content)).toEqual([
      '(redacted)',
      [{ type: 'output_text', text: 'Let me pass you to billing.' }],
    ]);
  });

  it('names the filter that returned something else', async () => {
    const data = await captureHandoffData('hi');
    await expect(composeInputFilters(removeAllTools, (() => null) as never, removeAllTools)(data)).rejects.toThrow(
      /composeInputFilters\(\): filter 1 must return HandoffInputData/,
    );
  });

  it('rejects a filter that is not a function with UserError', () => {
    expect(() => composeInputFilters(removeAllTools, 'x' as never)).toThrow(UserError);
    expect(() => composeInputFilters(removeAllTools, 'x' as never)).toThrow(/filter 1 must be a function, got string/);
  });
});
