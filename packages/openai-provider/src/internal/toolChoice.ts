import { UserError, type ModelRequest } from '@baton/types';

/** A tool choice that names a function must name one of the request's tools or handoffs. */
export function checkToolChoice(choice: string, request: ModelRequest): void {
  const names = new Set([...request.tools.map((tool) => tool.name), ...request.handoffs.map((handoff) => handoff.toolName)]);
  if (!names.has(choice)) {
    const available = [...names].join(', ') || 'none';
    throw new UserError(`modelSettings.toolChoice "${choice}" does not name a tool or handoff of this request (available: ${available}).`);
  }
}

/** `toolChoice: 'required'` needs at least one tool or handoff. */
export function checkRequiredChoice(choice: string | undefined, toolCount: number): void {
  if (choice === 'required' && toolCount === 0) {
    throw new UserError('modelSettings.toolChoice "required" needs at least one tool or handoff.');
  }
}
