import {
  UserError,
  type HandoffContract,
  type HandoffEnabledFunction,
  type HandoffInputFilter,
  type JsonObjectSchema,
  type RegisteredAgent,
  type RunContextContract,
  type SerializedFunctionTool,
} from '@baton/types';
import { toFunctionToolName } from './internal/names.js';

interface HandoffTarget {
  readonly name: string;
  readonly handoffDescription: string;
}

const EMPTY_OBJECT_SCHEMA: JsonObjectSchema = { type: 'object', properties: {}, required: [], additionalProperties: false };

export function defaultHandoffToolName(agent: { name: string }): string {
  return `transfer_to_${toFunctionToolName(agent.name)}`;
}

export function defaultHandoffToolDescription(agent: HandoffTarget): string {
  return `Handoff to the ${agent.name} agent to handle the request. ${agent.handoffDescription ?? ''}`;
}

/**
 * A transfer of the conversation to another agent, offered to the model as a function tool.
 * `@baton/handoffs` builds configured handoffs (typed input, filters, isEnabled) on this class.
 */
export class Handoff<TContext = unknown> implements HandoffContract<TContext> {
  toolName: string;
  toolDescription: string;
  inputJsonSchema: JsonObjectSchema = EMPTY_OBJECT_SCHEMA;
  strictJsonSchema = true;
  agentName: string;
  agent: RegisteredAgent;
  inputFilter?: HandoffInputFilter;
  isEnabled: HandoffEnabledFunction<TContext> = () => true;
  onInvokeHandoff: (context: RunContextContract<TContext>, args: string) => RegisteredAgent | Promise<RegisteredAgent>;

  constructor(
    agent: RegisteredAgent & HandoffTarget,
    onInvokeHandoff: (context: RunContextContract<TContext>, args: string) => RegisteredAgent | Promise<RegisteredAgent>,
  ) {
    if (typeof onInvokeHandoff !== 'function') throw new UserError('Handoff: `onInvokeHandoff` must be a function.');
    this.agent = agent;
    this.agentName = agent.name;
    this.toolName = defaultHandoffToolName(agent);
    this.toolDescription = defaultHandoffToolDescription(agent);
    this.onInvokeHandoff = onInvokeHandoff;
  }

  /**
   * A copy with some fields replaced. With a new \`agent\` (and no \`onInvokeHandoff\`), the copy
   * hands off to that agent: the original callback still runs (its side effects are kept), and
   * where it would return the original target it returns the new one; \`agentName\` follows.
   */
  clone(overrides: Partial<Pick<Handoff<TContext>, 'toolName' | 'toolDescription' | 'inputJsonSchema' | 'strictJsonSchema' | 'inputFilter' | 'isEnabled' | 'onInvokeHandoff' | 'agent' | 'agentName'>> = {}): Handoff<TContext> {
    const copy = Object.assign(Object.create(Handoff.prototype) as Handoff<TContext>, this);
    Object.assign(copy, overrides);
    const replacement = overrides.agent;
    if (replacement !== undefined && replacement !== this.agent) {
      if (overrides.agentName === undefined) copy.agentName = replacement.name;
      if (overrides.onInvokeHandoff === undefined) {
        const original = this.onInvokeHandoff;
        const target = this.agent;
        copy.onInvokeHandoff = async (context, args) => {
          const next = await original(context, args);
          return next === target ? replacement : next;
        };
      }
    }
    return copy;
  }

  getHandoffAsFunctionTool(): SerializedFunctionTool {
    return {
      type: 'function',
      name: this.toolName,
      description: this.toolDescription,
      parameters: this.inputJsonSchema,
      strict: this.strictJsonSchema,
    };
  }
}

export function isHandoff(value: unknown): value is HandoffContract<any> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as HandoffContract).toolName === 'string' &&
    typeof (value as HandoffContract).onInvokeHandoff === 'function' &&
    typeof (value as HandoffContract).getHandoffAsFunctionTool === 'function'
  );
}
