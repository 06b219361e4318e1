import { describe, expect, it } from 'vitest';
import { assistantMessage, functionCall } from '../src/index.js';

describe('assistantMessage', () => {
  it('builds a completed assistant message with one output_text part', () => {
    expect(assistantMessage('Hello')).toStrictEqual({
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Hello' }],
    });
  });

  it('adds id and providerData only when given', () => {
    expect(assistantMessage('Hi', { id: 'msg_1', providerData: { model: 'x' } })).toStrictEqual({
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Hi' }],
      id: 'msg_1',
      providerData: { model: 'x' },
    });
    expect(Object.keys(assistantMessage('Hi'))).not.toContain('id');
    expect(Object.keys(assistantMessage('Hi'))).not.toContain('providerData');
  });
});

describe('functionCall', () => {
  it.each<{ label: string; args: string | Record<string, unknown> | undefined; expected: string }>([
    { label: 'object arguments are JSON-encoded', args: { city: 'Oslo', days: 2 }, expected: '{"city":"Oslo","days":2}' },
    { label: 'string arguments are kept', args: '{"raw":true}', expected: '{"raw":true}' },
    { label: 'invalid JSON strings are kept as they are', args: '{not json', expected: '{not json' },
    { label: 'no arguments means an empty object', args: undefined, expected: '{}' },
  ])('$label', ({ args, expected }) => {
    const item = args === undefined ? functionCall('lookup') : functionCall('lookup', args);
    expect(item.arguments).toBe(expected);
  });

  it('builds a completed function_call whose id defaults to its callId', () => {
    const item = functionCall('get_weather', { city: 'Oslo' });
    expect(item).toMatchObject({ type: 'function_call', name: 'get_weather', status: 'completed', arguments: '{"city":"Oslo"}' });
    expect(item.callId).toMatch(/^call_get_weather_\d+$/);
    expect(item.id).toBe(item.callId);
    expect(Object.keys(item)).not.toContain('providerData');
  });

  it('gives each call a distinct callId', () => {
    const ids = new Set(Array.from({ length: 5 }, () => functionCall('same').callId));
    expect(ids.size).toBe(5);
  });

  it('honours explicit callId, id and providerData', () => {
    expect(functionCall('t', {}, { callId: 'c1', id: 'fc_1', providerData: { p: 1 } })).toStrictEqual({
      type: 'function_call',
      name: 't',
      callId: 'c1',
      id: 'fc_1',
      status: 'completed',
      arguments: '{}',
      providerData: { p: 1 },
    });
    expect(functionCall('t', {}, { callId: 'c2' }).id).toBe('c2');
  });
});
