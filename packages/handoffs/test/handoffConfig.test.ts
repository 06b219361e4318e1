import { describe, expect, it } from 'vitest';
import { Agent, Handoff, UserError } from '@baton/core';
import { getHandoff, handoff } from '../src/index.js';

const billing = new Agent({ name: 'Billing', handoffDescription: 'Invoices' });

describe('handoff() configuration', () => {
  it('returns a core Handoff for the agent, with the defaults', () => {
    const h = handoff(billing);
    expect(h).toBeInstanceOf(Handoff);
    expect([h.agent, h.agentName, h.toolName, h.toolDescription, h.strictJsonSchema, h.inputFilter]).toEqual([
      billing,
      'Billing',
      'transfer_to_Billing',
      'Handoff to the Billing agent to handle the request. Invoices',
      true,
      undefined,
    ]);
  });

  it.each([
    ['an onHandoff that is not a function', { onHandoff: 'log' }, /handoff\("Billing"\): `onHandoff` must be a function, got string/],
    ['an inputFilter that is not a function', { inputFilter: {} }, /`inputFilter` must be a function, got object/],
    ['an isEnabled that is neither boolean nor function', { isEnabled: 'yes' }, /`isEnabled` must be a boolean or a function, got string/],
    ['an empty toolNameOverride', { toolNameOverride: '' }, /`toolNameOverride` must be a non-empty string, got an empty string/],
    ['a toolNameOverride that is not a string', { toolNameOverride: 7 }, /`toolNameOverride` must be a non-empty string, got number/],
    ['a toolDescriptionOverride that is not a string', { toolDescriptionOverride: ['x'] }, /`toolDescriptionOverride` must be a string, got an array/],
    ['a config that is not an object', 'Billing', /the config must be an object, got string/],
  ])('rejects %s with UserError naming the field', (_label, config, message) => {
    const make = () => handoff(billing, config as never);
    expect(make).toThrow(UserError);
    expect(make).toThrow(message);
  });

  it('rejects a target that is not an Agent', () => {
    expect(() => handoff({ name: 'Billing' } as never)).toThrow(/handoff\(\): the first argument must be an Agent, got object/);
    expect(() => handoff(undefined as never)).toThrow(UserError);
  });
});

describe('getHandoff()', () => {
  it('returns a handoff as it is', () => {
    const h = handoff(billing, { toolNameOverride: 'money' });
    expect(getHandoff(h)).toBe(h);
  });

  it('wraps an agent in a default handoff', () => {
    const h = getHandoff(billing);
    expect(h).toBeInstanceOf(Handoff);
    expect(h.toolName).toBe('transfer_to_Billing');
    expect(h.agent).toBe(billing);
  });

  it('rejects anything else with UserError', () => {
    expect(() => getHandoff('Billing' as never)).toThrow(/getHandoff\(\): expected an Agent or a handoff, got string/);
  });
});
