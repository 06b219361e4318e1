import { addTraceProcessor } from '@baton/tracing';
import { otlpTracingProcessor } from '@baton/tracing/opentelemetry';

// The same spans as OpenTelemetry spans with GenAI attributes (invoke_agent, chat, execute_tool), over OTLP/HTTP.
addTraceProcessor(otlpTracingProcessor({ url: 'http://localhost:4318/v1/traces', serviceName: 'support-bot' }));
