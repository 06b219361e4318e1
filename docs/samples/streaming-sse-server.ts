import { createServer } from 'node:http';
import { Agent, run } from '@baton/core';
import { pipeToNodeResponse, toSSEResponse } from '@baton/streaming';

const agent = new Agent({ name: 'Assistant', model: 'gpt-4.1' });

// Web-standard handlers (Hono, Next.js route handlers, Bun, Deno, workers): return a Response.
export async function POST(request: Request): Promise<Response> {
  const { message } = (await request.json()) as { message: string };
  // The browser gets text deltas for a typing effect; no other raw model event (they carry the
  // agent's instructions), and errors as a generic message: the transports' defaults otherwise.
  return toSSEResponse(await run(agent, message, { stream: true }), { rawModelEvents: 'text' });
}

// node:http: write the frames to the response; a client that disconnects cancels the run.
export const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const result = await run(agent, url.searchParams.get('q') ?? 'Hello', { stream: true });
  await pipeToNodeResponse(result, res, { rawModelEvents: 'text' });
});
