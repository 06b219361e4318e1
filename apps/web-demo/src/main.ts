import { createDemoServer } from './server.js';

const port = Number(process.env.PORT ?? 3000);
// Behind a proxy, or on another name: ALLOWED_HOSTS=demo.example.com:443,other:8080
const allowedHosts = (process.env.ALLOWED_HOSTS ?? '').split(',').map((name) => name.trim()).filter(Boolean);
const demo = createDemoServer({ allowedHosts });
const url = await demo.listen(port, process.env.HOST ?? '127.0.0.1');
console.log(`Baton streaming demo: ${url}  (offline: a scripted model plays the run back)`);
