import { connectBackend, type Env } from './backend.js';
import { say, type Log } from './log.js';
import { approvalStep, type ApprovalFacts } from './steps/approval.js';
import { guardrailStep, type GuardrailFacts } from './steps/guardrail.js';
import { handoffStep, type HandoffFacts } from './steps/handoff.js';
import { secondProviderStep, type SecondProviderFacts } from './steps/secondProvider.js';
import { streamingToolStep, type StreamingToolFacts } from './steps/streamingTool.js';

export interface DemoReport {
  readonly banner: string;
  readonly offline: boolean;
  readonly handoff: HandoffFacts;
  readonly guardrail: GuardrailFacts;
  readonly streaming: StreamingToolFacts;
  readonly approval: ApprovalFacts;
  readonly secondProvider: SecondProviderFacts;
  readonly durationMs: number;
}

/** The whole demo, written to `log`. Offline unless `OPENAI_API_KEY` is set in `env`. */
export async function runDemo(log: Log, env: Env = process.env): Promise<DemoReport> {
  const start = performance.now();
  const backend = await connectBackend(env);
  log(`${backend.banner}\n`);
  try {
    const handoff = await handoffStep(backend, log);
    const guardrail = await guardrailStep(backend, log);
    const streaming = await streamingToolStep(backend, log);
    const approval = await approvalStep(backend, log);
    const secondProvider = await secondProviderStep(backend, log);
    const durationMs = Math.round(performance.now() - start);
    log('\n');
    say(log, `All five steps in ${(durationMs / 1000).toFixed(1)} s.`);
    return { banner: backend.banner, offline: backend.offline, handoff, guardrail, streaming, approval, secondProvider, durationMs };
  } finally {
    await backend.close();
  }
}
