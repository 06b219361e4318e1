import { beforeAll, describe, expect, it } from 'vitest';
import { connectBackend } from '../src/backend.js';
import { runDemo, type DemoReport } from '../src/demo.js';

describe('the demo, offline (step 4 starts the real second process)', () => {
  let printed = '';
  let report: DemoReport;
  beforeAll(async () => {
    report = await runDemo((text) => (printed += text), {});
  }, 60_000);

  it('says where the models run on its first line, and what to notice before each step', () => {
    expect(printed.split('\n')[0]).toMatch(/^Baton demo: OFFLINE — every model is a local fake server at http:\/\/127\.0\.0\.1:\d+/);
    const headers = [...printed.matchAll(/━━ (\d)\. .*\n {3}Notice: \S/g)].map((m) => m[1]);
    expect(headers).toEqual(['1', '2', '3', '4', '5']);
  });

  it('1: triage hands off to the refund specialist with a typed case summary', () => {
    expect(report.handoff).toMatchObject({
      handedOffTo: 'Refund specialist',
      caseSummary: { orderId: 'A-17', reason: 'arrived broken' },
      lastAgent: 'Refund specialist',
    });
    expect(printed).toContain('Triage → transfer_to_Refund_specialist({"orderId":"A-17","reason":"arrived broken"})');
    expect(printed).toContain('handoff: Triage → Refund specialist');
  });

  it('2: the parallel guardrail trips, the run is rejected at once and the model request is aborted', () => {
    const { tripped, trippedAtMs, rejectedAtMs, modelMs, modelRequestOutcome } = report.guardrail;
    expect(tripped).toBe(true);
    expect(trippedAtMs).toBeGreaterThan(0);
    expect(trippedAtMs!).toBeLessThanOrEqual(rejectedAtMs);
    expect(rejectedAtMs).toBeLessThan(modelMs! / 3); // ≪ the model's 3 s
    expect(modelRequestOutcome).toBe('client_closed');
    expect(printed).toMatch(/guardrail no_card_numbers .* tripped at [\d.]+ ms/);
    expect(printed).toMatch(/run rejected \(InputGuardrailTripwireTriggered\) at [\d.]+ ms/);
    expect(printed).toContain('the server recorded "client_closed"');
  });

  it('3: the nested agent streams live through the parent, and none of it enters the history', () => {
    const s = report.streaming;
    expect(s.innerEvents).toBeGreaterThan(10);
    expect(s.innerTextDeltas).toBe(6);
    expect(s.firstInnerDeltaAtMs!).toBeLessThan(s.toolEndedAtMs!); // seen while the tool was still running
    expect(s.historyTypes).toEqual(['message:user', 'function_call', 'function_call_result', 'message:assistant']);
    expect(s.innerItemsInHistory).toBe(0);
    expect(printed).toContain('│ research_order calls lookup_order({"orderId":"A-17"})');
    expect(printed).toContain('│ research_order writes: Order A-17 (espresso machine, EUR 42) was delivered two days ago and arrived broken.');
    expect(printed).toContain('nested items in it: 0');
  });

  it('4: the second process approves and resumes the stored run, exactly once', () => {
    const a = report.approval;
    expect(a.pausedOn).toEqual(['issue_refund({"orderId":"A-17","amountEur":42})']);
    expect(a.childPid).toBeGreaterThan(0);
    expect(a.childPid).not.toBe(process.pid);
    expect(a.childLines).toEqual([
      `approved issue_refund({"orderId":"A-17","amountEur":42}) as approver-${a.childPid}`,
      'resume #1: completed — "Done: EUR 42 for order A-17 is on its way back to your card."',
      'resume #2: not_claimed (refused: the run is completed)',
    ]);
    expect(a.parentResume).toBe('not_claimed');
    expect(a.storedStatus).toBe('completed');
    expect(a.decidedBy).toBe(`approver-${a.childPid}`);
    expect(a.refundsPaid).toBe(1);
    expect(printed).toMatch(/stored as "refund-A-17" in .*paused-runs\.sqlite/);
    expect(printed).toContain('refunds paid: 1');
  });

  it('5: the same specialist runs on the Anthropic route through aisdk(), by its model name', () => {
    const p = report.secondProvider;
    expect(p.model).toBe('anthropic/claude-sonnet-4-5');
    expect(p.apis).toEqual(['anthropic-messages', 'anthropic-messages']);
    expect(p.routes).toEqual(['POST /v1/messages (claude-sonnet-4-5)', 'POST /v1/messages (claude-sonnet-4-5)']);
    expect(p.toolCalled).toBe(true);
    expect(printed).toContain("specialist.clone({ model: 'anthropic/claude-sonnet-4-5' })");
  });

  it('stays well under 30 seconds', () => {
    expect(report.durationMs).toBeLessThan(30_000);
    expect(printed).toMatch(/All five steps in [\d.]+ s\./);
  });
});

describe('the banner', () => {
  it('says the demo runs on OpenAI when OPENAI_API_KEY is set', async () => {
    const backend = await connectBackend({ OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'gpt-4o-mini' });
    await backend.close();
    expect(backend.offline).toBe(false);
    expect(backend.banner).toMatch(/^Baton demo: ON OPENAI — model gpt-4o-mini \(OPENAI_API_KEY is set\)/);
    expect(backend.endpoints.openaiBaseURL).toBeUndefined();
    expect(backend.anthropicOffline).toBe(true);
  });
});
