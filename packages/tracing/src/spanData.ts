/** What a span describes, by kind, with the reference's field names (they are the ingest's). */
export type AgentSpanData = { type: 'agent'; name: string; handoffs?: string[]; tools?: string[]; output_type?: string };

export type TurnUsageData = { input_tokens: number; output_tokens: number; cached_input_tokens: number; cache_write_input_tokens: number };
export type TaskUsageData = TurnUsageData & { requests: number; total_tokens: number };

/** One run (the reference's "task"): every span of the run hangs from it. */
export type TaskSpanData = { type: 'task'; name: string; usage?: TaskUsageData };
/** One model call of an agent and what followed from it. */
export type TurnSpanData = { type: 'turn'; turn: number; agent_name: string; usage?: TurnUsageData };
export type FunctionSpanData = { type: 'function'; name: string; input: string; output: string; mcp_data?: string; _call_id?: string };

export type GenerationUsageData = { input_tokens?: number; output_tokens?: number; details?: Record<string, unknown> | null; [key: string]: unknown };
export type GenerationSpanData = {
  type: 'generation';
  input?: Array<Record<string, any>>;
  output?: Array<Record<string, any>>;
  model?: string;
  model_config?: Record<string, any>;
  usage?: GenerationUsageData;
};
/** A call to a Responses-style API; fields starting with `_` are kept in process, never exported. */
export type ResponseSpanData = {
  type: 'response';
  response_id?: string;
  _input?: string | Record<string, any>[];
  _response?: Record<string, any>;
  _model?: string;
  _usage?: { input_tokens: number; output_tokens: number };
};
export type HandoffSpanData = { type: 'handoff'; from_agent?: string; to_agent?: string };
export type CustomSpanData = { type: 'custom'; name: string; data: Record<string, any> };
export type GuardrailSpanData = { type: 'guardrail'; name: string; triggered: boolean };
export type TranscriptionSpanData = {
  type: 'transcription';
  input: { data: string; format: 'pcm' | (string & {}) };
  output?: string;
  model?: string;
  model_config?: Record<string, any>;
};
export type SpeechSpanData = {
  type: 'speech';
  input?: string;
  output: { data: string; format: 'pcm' | (string & {}) };
  model?: string;
  model_config?: Record<string, any>;
};
export type SpeechGroupSpanData = { type: 'speech_group'; input?: string };
export type MCPListToolsSpanData = { type: 'mcp_tools'; server?: string; result?: string[] };

export type SpanData =
  | AgentSpanData
  | TaskSpanData
  | TurnSpanData
  | FunctionSpanData
  | GenerationSpanData
  | ResponseSpanData
  | HandoffSpanData
  | CustomSpanData
  | GuardrailSpanData
  | TranscriptionSpanData
  | SpeechSpanData
  | SpeechGroupSpanData
  | MCPListToolsSpanData;

/** What went wrong in a span. */
export type SpanError = { message: string; data?: Record<string, any> };
