import { Agent, run, tool, type Model, type RunStreamEvent } from '@baton/agents';
import { z } from 'zod';

/** Where the demo writes what happens (stdout in the demo, a buffer in its test). */
export type Print = (text: string) => void;

const forecasts: Record<string, { tempC: number; sky: string }> = {
  Lisbon: { tempC: 21, sky: 'sunny' },
  Oslo: { tempC: 4, sky: 'light snow' },
};

export const getForecast = tool({
  name: 'get_forecast',
  description: 'Get tomorrow’s forecast for a city.',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => forecasts[city] ?? { error: `no forecast for ${city}` },
});

const Plan = z.object({ city: z.string(), packing: z.array(z.string()) });

/**
 * A two-step workflow: a researcher agent calls a tool to gather forecasts (step 1), then a
 * planner agent turns the findings into a structured packing plan (step 2). Both steps stream.
 */
export async function runWorkflow(models: { researcher: Model; planner: Model }, print: Print): Promise<z.infer<typeof Plan>> {
  const researcher = new Agent({
    name: 'Researcher',
    instructions: 'Look up the forecast for each city the user mentions and summarise it.',
    model: models.researcher,
    tools: [getForecast],
  });
  const planner = new Agent({
    name: 'Planner',
    instructions: 'Given a weather summary, pick the warmer city and list what to pack.',
    model: models.planner,
    outputType: Plan,
  });

  print('Step 1: research\n');
  const research = await run(researcher, 'Compare tomorrow in Lisbon and Oslo.', { stream: true });
  for await (const event of research) printEvent(event, print);
  await research.completed;

  print('\nStep 2: plan\n');
  const plan = await run(planner, research.history, { stream: true });
  for await (const event of plan) printEvent(event, print);
  await plan.completed;
  const output = plan.finalOutput!;
  print(`\nPlan: go to ${output.city}; pack ${output.packing.join(', ')}.\n`);
  return output;
}

function printEvent(event: RunStreamEvent, print: Print): void {
  if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') {
    print(event.data.delta);
  } else if (event.type === 'run_item_stream_event') {
    if (event.name === 'tool_called' && event.item.type === 'tool_call_item') {
      print(`  → ${event.item.rawItem.name}(${event.item.rawItem.arguments})\n`);
    } else if (event.name === 'tool_output' && event.item.type === 'tool_call_output_item') {
      print(`  ← ${JSON.stringify(event.item.output)}\n`);
    } else if (event.name === 'message_output_created') {
      print('\n');
    }
  }
}
