// Typing cases the compatibility issue names: callbacks typed with RunContext, streams iterated
// with for await, readonly lists, toolUseBehavior functions, asTool options, RunConfig fields.
import { z } from 'zod';
import { Agent, RunContext, Runner, run, tool, type FunctionToolResult, type Tool } from 'sdk';

interface Ctx {
  tenant: string;
}

const instructions = (runContext: RunContext<Ctx>) => `Tenant ${runContext.context.tenant}`;

const lookup = tool({
  name: 'lookup',
  description: 'lookup',
  parameters: z.object({ id: z.string() }),
  execute: async ({ id }, runContext?: RunContext<Ctx>) => `${id} for ${runContext?.context.tenant}`,
});

const tools: readonly Tool<Ctx>[] = [lookup];

const agent = new Agent<Ctx>({
  name: 'Typed',
  instructions,
  tools: [...tools],
  toolUseBehavior: (_context, results: FunctionToolResult[]) => {
    const first = results.find((r) => r.type === 'function_output');
    return first ? { isFinalOutput: true, isInterrupted: undefined, finalOutput: String(first.output) } : { isFinalOutput: false, isInterrupted: undefined };
  },
});

const helper = new Agent({ name: 'Helper' });
const helperTool = helper.asTool({
  toolName: 'helper',
  toolDescription: 'helps',
  parameters: z.object({ topic: z.string() }),
  inputBuilder: ({ params }) => `Help with ${params.topic}`,
  runOptions: { maxTurns: 3 },
});
void helperTool;

export async function streams(): Promise<void> {
  const result = await run(agent, 'go', { stream: true, context: { tenant: 't' } });
  for await (const event of result.toStream()) void event;
  for await (const chunk of result.toTextStream()) void chunk;
  await result.completed;
  const runner = new Runner({ groupId: 'g1', traceMetadata: { team: 'a' }, workflowName: 'wf' });
  void runner;
}
