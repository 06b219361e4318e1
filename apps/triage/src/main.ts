import { scriptedModels } from './scriptedModels.js';
import { runTriage } from './workflow.js';

const print = (line: string) => console.log(line);

console.log('Baton triage example: offline, on scripted models (no API key needed).\n');

console.log('# A refund: triage hands over a typed request { orderId, reason }\n');
await runTriage(scriptedModels('refund'), 'My order A-17 arrived broken, I want my money back.', { customerId: 'c-1', verified: true }, print);

console.log('\n# A billing question: a plain handoff\n');
await runTriage(scriptedModels('billing'), 'How much was my last invoice?', { customerId: 'c-2', verified: false }, print);
