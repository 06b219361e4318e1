import {
  UserError,
  type Computer,
  type ComputerApprovalFunction,
  type ComputerConfig,
  type ComputerOnSafetyCheckFunction,
  type ComputerTool,
  type ComputerToolCustomDataExtractor,
  type ComputerUseCallItem,
  type ToolInputGuardrail,
  type ToolOutputGuardrail,
} from '@baton/types';
import { approvalPredicate } from './internal/approvalPredicate.js';
import { checkedToolGuardrails } from './internal/toolGuardrailLists.js';
import { requireFunction } from './internal/validate.js';

export interface ComputerToolOptions<TContext = unknown, TComputer extends Computer = Computer> {
  /** The name of the tool (`computer_use_preview` by default). */
  name?: string;
  /** A computer, a function making one per run, or `{ create, dispose }` (disposed when the run ends). */
  computer: ComputerConfig<TContext, TComputer>;
  /** `true`, or a function of each action: the run pauses until a human approves the call. */
  needsApproval?: boolean | ComputerApprovalFunction;
  /** Decides about the safety checks the model attached to a call (acknowledge, or reject the call). */
  onSafetyCheck?: ComputerOnSafetyCheckFunction;
  /** Checks of each call before its actions run (after its approval); `rejectContent` answers the model instead. Baton only. */
  inputGuardrails?: ToolInputGuardrail<TContext, ComputerUseCallItem>[];
  /** Checks of the screenshot before the model sees it; `rejectContent` withholds it. Baton only. */
  outputGuardrails?: ToolOutputGuardrail<TContext, ComputerUseCallItem>[];
  /** Attaches data of your own to each screenshot's output item (`RunToolCallOutputItem.customData`); called before `agent_tool_end`. */
  customDataExtractor?: ComputerToolCustomDataExtractor<TContext, TComputer>;
}

/**
 * The computer-use tool (the reference's `computerTool`): the model asks for mouse and keyboard
 * actions, the `Computer` performs them, and the model gets a screenshot after each call (as an
 * image, `data:image/png;base64,...`). An action the computer refuses (it throws) is reported to
 * the model with an empty screenshot; the run goes on.
 */
export function computerTool<TContext = unknown, TComputer extends Computer = Computer>(
  options: ComputerToolOptions<TContext, TComputer>,
): ComputerTool<TContext, TComputer> {
  if (!options.computer) throw new UserError('computerTool requires a computer instance or an initializer function.');
  const tool: ComputerTool<TContext, TComputer> = {
    type: 'computer',
    name: options.name ?? 'computer_use_preview',
    computer: options.computer,
    needsApproval: approvalPredicate<ComputerApprovalFunction>(options.needsApproval, 'computerTool'),
  };
  if (options.onSafetyCheck !== undefined) tool.onSafetyCheck = options.onSafetyCheck;
  if (options.customDataExtractor !== undefined) {
    tool.customDataExtractor = requireFunction(options.customDataExtractor, `computerTool "${tool.name}": \`customDataExtractor\``);
  }
  Object.assign(tool, checkedToolGuardrails(`computerTool "${tool.name}"`, options));
  return tool;
}
