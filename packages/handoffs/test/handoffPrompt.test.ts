import { describe, expect, it } from 'vitest';
import { RECOMMENDED_PROMPT_PREFIX, promptWithHandoffInstructions } from '../src/index.js';

describe('the recommended handoff prompt', () => {
  it('tells the agent about other agents, the transfer_to_<agent_name> functions, and to keep transfers quiet', () => {
    expect(RECOMMENDED_PROMPT_PREFIX).toMatch(/^# /);
    expect(RECOMMENDED_PROMPT_PREFIX).toContain('`transfer_to_<agent_name>`');
    expect(RECOMMENDED_PROMPT_PREFIX).toMatch(/several agents/);
    expect(RECOMMENDED_PROMPT_PREFIX).toMatch(/never mention them/);
  });

  it('promptWithHandoffInstructions puts the prefix and a blank line before the prompt', () => {
    expect(promptWithHandoffInstructions('You handle refunds.')).toBe(`${RECOMMENDED_PROMPT_PREFIX}\n\nYou handle refunds.`);
  });
});
