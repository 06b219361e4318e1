/**
 * Responses turn latency over HTTP and over a kept WebSocket (issue 30), alone:
 * `pnpm --filter @baton/bench responses-transport [--quick]`.
 */
import { formatResponsesTransport, measureResponsesTransport, RESPONSES_TRANSPORT_QUICK } from './scenarios/responsesTransport.js';

const result = await measureResponsesTransport(process.argv.includes('--quick') ? RESPONSES_TRANSPORT_QUICK : {});
console.log(formatResponsesTransport(result));
console.log(JSON.stringify(result));
