/**
 * `pnpm --filter @baton/examples providers` runs the three setups offline.
 * `PROVIDER_SETUP=mixed` runs one; `PROVIDERS_ONLINE=1` (with OPENAI_API_KEY, ANTHROPIC_API_KEY and
 * GOOGLE_GENERATIVE_AI_API_KEY set) runs it on the real APIs.
 */
import { consoleLog } from '../guardrails/log.js';
import { providersExample } from './providersExample.js';
import { SETUPS, type SetupName } from './supportAgents.js';

const chosen = process.env.PROVIDER_SETUP;
if (chosen !== undefined && !(chosen in SETUPS)) {
  console.error(`PROVIDER_SETUP must be one of ${Object.keys(SETUPS).join(', ')}; got '${chosen}'.`);
  process.exit(2);
}
const online = process.env.PROVIDERS_ONLINE === '1';
consoleLog(`== One agent graph, swapped providers (${online ? 'online: the real APIs' : 'offline: a local server speaking each vendor’s wire format'})`);
for (const setup of chosen ? [chosen as SetupName] : (Object.keys(SETUPS) as SetupName[])) await providersExample(setup, consoleLog, online);
