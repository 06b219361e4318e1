import { createDemoServer } from './server.js';

const port = Number(process.env.PORT ?? 3000);
const demo = createDemoServer();
const url = await demo.listen(port, process.env.HOST ?? '127.0.0.1');
console.log(`Baton streaming demo: ${url}  (offline: a scripted model plays the run back)`);
