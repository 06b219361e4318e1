// Typing tool output custom data: `customDataExtractor` on function, computer and apply-patch tools
// and MCP servers, the context types, and `RunToolCallOutputItem.customData`.
import { z } from 'zod';
import {
  Agent,
  RunToolCallOutputItem,
  run,
  tool,
  type ApplyPatchToolCustomDataExtractor,
  type ComputerToolCustomDataContext,
  type FunctionToolCustomDataContext,
  type MCPToolCustomDataExtractor,
  type ToolOutputCustomData,
} from 'sdk';

interface Shop {
  tenant: string;
}

const lookup = tool({
  name: 'lookup',
  description: 'Looks an order up',
  parameters: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => ({ orderId, total: 40 }),
  customDataExtractor: async ({ input, output, toolCall, rawItem, runContext }) => ({
    input: input as Record<string, unknown>,
    total: (output as { total: number }).total,
    callId: toolCall.callId,
    raw: rawItem.type,
    hasContext: runContext !== undefined,
  }),
});

const fromContext = (context: FunctionToolCustomDataContext<Shop>): ToolOutputCustomData | null => (context.runContext.context.tenant === 'acme' ? { tenant: 'acme' } : null);
const shopTool = tool({ name: 'shop', description: 'shop', parameters: z.object({}), execute: () => 'ok', customDataExtractor: fromContext });

const onScreenshot = (context: ComputerToolCustomDataContext): ToolOutputCustomData => ({ bytes: context.output.length, call: context.toolCall.callId });
const onPatch: ApplyPatchToolCustomDataExtractor = ({ operation, status }) => ({ path: operation.path, status });
const onMcp: MCPToolCustomDataExtractor = ({ serverName, resultMeta, isError }) => ({ serverName, meta: resultMeta ?? null, failed: isError === true });
void [onScreenshot, onPatch, onMcp];

export async function main() {
  const agent = new Agent<Shop>({ name: 'Clerk', tools: [lookup, shopTool] });
  const result = await run(agent, 'where is my order?', { context: { tenant: 'acme' } });
  for (const item of result.newItems) {
    if (item instanceof RunToolCallOutputItem) {
      const data: ToolOutputCustomData | undefined = item.customData;
      void data?.['total'];
    }
  }
}
