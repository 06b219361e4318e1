import { UserError, type ToolGuardrailFunctionOutput } from '@baton/types';
import { typeName } from '@baton/core/internal';

function withInfo(behavior: ToolGuardrailFunctionOutput['behavior'], outputInfo: unknown): ToolGuardrailFunctionOutput {
  return outputInfo === undefined ? { behavior } : { behavior, outputInfo };
}

/** Builds what a tool guardrail returns. */
export class ToolGuardrailFunctionOutputFactory {
  private constructor() {}

  /** Go on: to the next guardrail, then the tool (input) or the model (output). */
  static allow(outputInfo?: unknown): ToolGuardrailFunctionOutput {
    return withInfo({ type: 'allow' }, outputInfo);
  }

  /**
   * Stop here and send `message` to the model instead: the tool is not called (input guardrail),
   * or its output is replaced (output guardrail). The run goes on.
   */
  static rejectContent(message: string, outputInfo?: unknown): ToolGuardrailFunctionOutput {
    if (typeof message !== 'string') {
      throw new UserError(`ToolGuardrailFunctionOutputFactory.rejectContent: \`message\` must be a string, got ${typeName(message)}.`);
    }
    return withInfo({ type: 'rejectContent', message }, outputInfo);
  }

  /** Fail the run: it rejects with `ToolCallError` wrapping the tool guardrail tripwire. */
  static throwException(outputInfo?: unknown): ToolGuardrailFunctionOutput {
    return withInfo({ type: 'throwException' }, outputInfo);
  }
}
