import { connectModels } from './models.js';
import { runWorkflow } from './workflow.js';

const print = (text: string) => process.stdout.write(text);

const session = await connectModels();
print(`${session.banner}\n\n`);
try {
  await runWorkflow(session.models, print);
} finally {
  await session.close();
}
