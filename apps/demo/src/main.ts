import { runDemo } from './demo.js';

await runDemo((text) => process.stdout.write(text));
