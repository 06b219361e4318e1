import { afterEach, describe, expect, it, vi } from 'vitest';
import { Agent, Usage, run, type Model, type ModelRequest, type ModelResponse, type ModelStreamEvent } from '../src/index.js';

/**
 * A provider whose stream sends some output items and then ends: by throwing the fetch layer's
 * abort error, or by waiting until the run's signal aborts it. Non-streamed requests (the settling
 * request) are recorded and answered by `answer`.
 */
class InterruptedStream implements Model {
  readonly streamed: ModelRequest[] = [];
  readonly settling: ModelRequest[] = [];
  constructor(
    private readonly items: Record<string, unknown>[],
    private readonly ending: 'abort-error' | 'wait-for-signal',
    private readonly answer: () => Promise<ModelResponse> = async () => ({ output: [], usage: new Usage({ requests: 1, inputTokens: 2, outputTokens: 3, totalTokens: 5 }), responseId: 'resp_settled' }),
  ) {}

  #reachedEnd!: () => void;
  /** Resolves once every item has been sent. */
  readonly reached = new Promise<void>((resolve) => (this.#reachedEnd = resolve));

  getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.settling.push(request);
    return this.answer();
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    this.streamed.push(request);
    yield { type: 'model', event: { type: 'response.created', response: { id: 'resp_streamed' } } };
    for (const item of this.items) yield { type: 'model', event: { type: 'response.output_item.done', item } };
    this.#reachedEnd();
    if (this.ending === 'wait-for-signal') {
      await new Promise<void>((resolve) => request.signal?.addEventListener('abort', () => resolve(), { once: true }));
    }
    const error = new Error('The operation was aborted.');
    error.name = 'AbortError';
    throw error;
  }
}

const lookup = { type: 'function_call', id: 'fc_1', call_id: 'call_lookup', name: 'lookup', arguments: '{}', status: 'completed' };

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('a streamed call aborted on a conversation the provider keeps', () => {
  it('answers each call the stream made as aborted, in one request outside the cancelled signal, and ends quietly', async () => {
    const model = new InterruptedStream([lookup], 'abort-error');
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true, conversationId: 'conv_1' });
    await expect(result.completed).resolves.toBeUndefined();
    expect(result.finalOutput).toBeUndefined();
    expect(model.settling).toHaveLength(1);
    const [settling] = model.settling;
    expect(settling!.conversationId).toBe('conv_1');
    expect(settling!.signal).toBeUndefined();
    expect(settling!.input).toEqual([
      { type: 'function_call_result', name: 'lookup', callId: 'call_lookup', status: 'incomplete', output: { type: 'text', text: 'aborted' } },
    ]);
    // Its usage is the run's.
    expect(result.state.usage.totalTokens).toBe(5);
  });

  it('chains the settling request to the aborted response when only previousResponseId is kept', async () => {
    const model = new InterruptedStream([lookup], 'abort-error');
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true, previousResponseId: 'resp_before' });
    await result.completed;
    expect(model.settling[0]!.previousResponseId).toBe('resp_streamed');
    expect(model.settling[0]!.conversationId).toBeUndefined();
  });

  it('settles local shell, apply-patch and program calls but not a hosted shell the provider runs', async () => {
    const program = { type: 'program', id: 'prog_1', call_id: 'call_prog', code: 'x', fingerprint: 'f' };
    const localShell = { type: 'shell_call', call_id: 'call_sh', action: { commands: ['ls'] }, caller: { type: 'program', caller_id: 'call_prog' } };
    const hostedShell = { type: 'shell_call', call_id: 'call_hosted', action: { commands: ['ls'] }, environment: { type: 'container_auto' } };
    const patch = { type: 'apply_patch_call', call_id: 'call_patch', operation: { type: 'delete_file', path: 'a.txt' }, caller: { type: 'direct' } };
    const model = new InterruptedStream([program, localShell, hostedShell, patch], 'abort-error');
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true, conversationId: 'conv_1' });
    await result.completed;
    const input = model.settling[0]!.input as unknown as Array<Record<string, unknown>>;
    expect(input.map((item) => [item.type, item.callId])).toEqual([
      ['shell_call_output', 'call_sh'],
      ['apply_patch_call_output', 'call_patch'],
      ['program_output', 'call_prog'],
    ]);
    expect(input[0]).toMatchObject({ status: 'incomplete', caller: { type: 'program', callerId: 'call_prog' }, output: [{ stderr: 'aborted', outcome: { type: 'timeout' } }] });
    expect(input[1]).toMatchObject({ status: 'failed', output: 'aborted', caller: { type: 'direct' } });
    expect(input[2]).toMatchObject({ status: 'incomplete', output: 'aborted', id: expect.stringMatching(/^prog_out_[0-9a-f]{32}$/) });
  });

  it('settles when the caller cancels mid-stream, and cancellation waits for it', async () => {
    const controller = new AbortController();
    const model = new InterruptedStream([lookup], 'wait-for-signal');
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true, conversationId: 'conv_1', signal: controller.signal });
    await model.reached;
    controller.abort();
    await result.completed;
    expect(model.settling).toHaveLength(1);
    expect(model.settling[0]!.input).toMatchObject([{ callId: 'call_lookup', status: 'incomplete' }]);
  });

  it('sends nothing without a server-managed conversation (the local history holds the calls)', async () => {
    const model = new InterruptedStream([lookup], 'abort-error');
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true });
    await expect(result.completed).resolves.toBeUndefined();
    expect(model.settling).toHaveLength(0);
  });

  it('sends nothing when every call already has its output in the stream', async () => {
    const output = { type: 'function_call_output', call_id: 'call_lookup', output: 'x' };
    const model = new InterruptedStream([lookup, output], 'abort-error');
    await (await run(new Agent({ name: 'A', model }), 'go', { stream: true, conversationId: 'conv_1' })).completed;
    expect(model.settling).toHaveLength(0);
  });

  it('a settling request that fails is logged without its details when tool data is redacted, and the run still ends quietly', async () => {
    vi.stubEnv('DEBUG', 'openai-agents:core');
    vi.stubEnv('OPENAI_AGENTS_DONT_LOG_TOOL_DATA', '1');
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    const model = new InterruptedStream([lookup], 'abort-error', () => Promise.reject(new Error('SECRET in the provider error')));
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true, conversationId: 'conv_1' });
    await expect(result.completed).resolves.toBeUndefined();
    expect(debug).toHaveBeenCalledWith('openai-agents:core Failed to reconcile streamed tool calls after abort.', 'object');
    expect(JSON.stringify(debug.mock.calls)).not.toContain('SECRET');
  });
});
