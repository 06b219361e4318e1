import { runWorkflow } from './workflow.js';
import { scriptedModels } from './scriptedModels.js';

const print = (text: string) => process.stdout.write(text);

print('Baton demo: running offline on a scripted model (no OpenAI key needed).\n\n');
await runWorkflow(scriptedModels(), print);
