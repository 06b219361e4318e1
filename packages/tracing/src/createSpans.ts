import { resetCurrentSpan, setCurrentSpan, withNewSpanContext } from './context.js';
import { getGlobalTraceProvider } from './globalTraceProvider.js';
import type { Span } from './span.js';
import type {
  AgentSpanData,
  CustomSpanData,
  FunctionSpanData,
  GenerationSpanData,
  GuardrailSpanData,
  HandoffSpanData,
  MCPListToolsSpanData,
  ResponseSpanData,
  SpanData,
  SpeechGroupSpanData,
  SpeechSpanData,
  TaskSpanData,
  TranscriptionSpanData,
  TurnSpanData,
} from './spanData.js';
import type { Trace } from './trace.js';
import type { CreateSpanOptions } from './traceProvider.js';

/** Options of a `create*Span` helper: the span's data may be partial (defaults fill it in). */
export type CreateKindSpanOptions<TData extends SpanData> = Partial<Omit<CreateSpanOptions<TData>, 'data'>> & { data?: Partial<TData> };

function spanMaker<TData extends SpanData>(defaults: () => TData) {
  const create = (options: CreateKindSpanOptions<TData> = {}, parent?: Span<any> | Trace): Span<TData> =>
    getGlobalTraceProvider().createSpan<TData>({ ...options, data: { ...defaults(), ...options.data } as TData }, parent);
  /**
   * Runs `fn` in a new span (current while `fn` runs, ended when it settles); a thrown error is
   * recorded on the span and thrown again.
   */
  const withSpan = <T>(fn: (span: Span<TData>) => Promise<T>, options: CreateKindSpanOptions<TData> = {}, parent?: Span<any> | Trace): Promise<T> =>
    withNewSpanContext(async () => {
      const span = create(options, parent);
      span.start();
      setCurrentSpan(span);
      try {
        return await fn(span);
      } catch (error) {
        span.setError({ message: error instanceof Error ? error.message : String(error), ...(hasData(error) ? { data: error.data } : {}) });
        throw error;
      } finally {
        span.end();
        resetCurrentSpan();
      }
    });
  return [create, withSpan] as const;
}

function hasData(error: unknown): error is { data: Record<string, any> } {
  return typeof error === 'object' && error !== null && typeof (error as { data?: unknown }).data === 'object' && (error as { data?: unknown }).data !== null;
}

export const [createAgentSpan, withAgentSpan] = spanMaker<AgentSpanData>(() => ({ type: 'agent', name: 'Agent' }));
export const [createTaskSpan, withTaskSpan] = spanMaker<TaskSpanData>(() => ({ type: 'task', name: 'Agent workflow' }));
export const [createTurnSpan, withTurnSpan] = spanMaker<TurnSpanData>(() => ({ type: 'turn', turn: 0, agent_name: 'Agent' }));
export const [createFunctionSpan, withFunctionSpan] = spanMaker<FunctionSpanData>(() => ({ type: 'function', name: 'function', input: '', output: '' }));
export const [createGenerationSpan, withGenerationSpan] = spanMaker<GenerationSpanData>(() => ({ type: 'generation' }));
export const [createResponseSpan, withResponseSpan] = spanMaker<ResponseSpanData>(() => ({ type: 'response' }));
export const [createHandoffSpan, withHandoffSpan] = spanMaker<HandoffSpanData>(() => ({ type: 'handoff' }));
export const [createCustomSpan, withCustomSpan] = spanMaker<CustomSpanData>(() => ({ type: 'custom', name: 'custom', data: {} }));
export const [createGuardrailSpan, withGuardrailSpan] = spanMaker<GuardrailSpanData>(() => ({ type: 'guardrail', name: 'guardrail', triggered: false }));
export const [createTranscriptionSpan, withTranscriptionSpan] = spanMaker<TranscriptionSpanData>(() => ({ type: 'transcription', input: { data: '', format: 'pcm' } }));
export const [createSpeechSpan, withSpeechSpan] = spanMaker<SpeechSpanData>(() => ({ type: 'speech', output: { data: '', format: 'pcm' } }));
export const [createSpeechGroupSpan, withSpeechGroupSpan] = spanMaker<SpeechGroupSpanData>(() => ({ type: 'speech_group' }));
export const [createMCPListToolsSpan, withMCPListToolsSpan] = spanMaker<MCPListToolsSpanData>(() => ({ type: 'mcp_tools' }));
