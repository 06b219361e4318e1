import { Agent, UserError, isHandoff, type Handoff, type HandoffContract } from '@baton/core';
import { handoff } from './handoff.js';
import { typeName } from '@baton/core/internal';

/** The handoff for an entry of `handoffs`: a handoff as it is, an agent wrapped with `handoff(agent)`. */
export function getHandoff<TContext>(value: Agent<TContext, any> | Handoff<TContext>): Handoff<TContext>;
export function getHandoff<TContext>(value: Agent<TContext, any> | HandoffContract<TContext>): HandoffContract<TContext>;
export function getHandoff(value: Agent<any, any> | HandoffContract<any>): HandoffContract<any> {
  if (value instanceof Agent) return handoff(value);
  if (isHandoff(value)) return value;
  throw new UserError(`getHandoff(): expected an Agent or a handoff, got ${typeName(value)}.`);
}
