import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectBackend } from './backend.js';
import { createChatServer } from './server.js';

// `npm run chat` (or `pnpm --filter @baton/chat start`): the chat at http://127.0.0.1:3001/.
const dataDir = join(dirname(fileURLToPath(import.meta.url)), '..', '.data');
const dbPath = process.env.CHAT_DB ?? join(dataDir, 'chat.sqlite');
if (process.env.CHAT_DB === undefined) mkdirSync(dataDir, { recursive: true });

const backend = await connectBackend();
const server = await createChatServer({
  runner: backend.runner,
  model: backend.model,
  dbPath,
  allowedHosts: (process.env.ALLOWED_HOSTS ?? '').split(',').filter((name) => name !== ''),
});
const url = await server.listen(Number(process.env.PORT ?? 3001), process.env.HOST ?? '127.0.0.1');
console.log(backend.banner);
console.log(`Chats are kept in ${dbPath}.`);
console.log(`Open ${url} (Ctrl-C stops it).`);

const stop = async () => {
  await server.close();
  await backend.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
