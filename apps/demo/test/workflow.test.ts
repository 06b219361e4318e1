import { describe, expect, it } from 'vitest';
import { runWorkflow } from '../src/workflow.js';
import { scriptedModels } from '../src/scriptedModels.js';

describe('demo workflow', () => {
  it('researches with the tool, then plans, streaming both steps', async () => {
    const models = scriptedModels();
    let printed = '';
    const plan = await runWorkflow(models, (text) => (printed += text));

    expect(plan).toEqual({ city: 'Lisbon', packing: ['sunglasses', 'light jacket', 'sandals'] });
    expect(printed).toContain('get_forecast({"city":"Oslo"})');
    expect(printed).toContain('{"tempC":4,"sky":"light snow"}');
    expect(printed).toContain('Tomorrow Lisbon is sunny');
    expect(printed).toContain('Plan: go to Lisbon; pack sunglasses, light jacket, sandals.');
    // The planner saw the researcher's whole history, tool results included.
    const plannerInput = JSON.stringify(models.planner.firstCall?.request.input);
    expect(plannerInput).toContain('light snow');
    models.researcher.assertComplete();
    models.planner.assertComplete();
  });
});
