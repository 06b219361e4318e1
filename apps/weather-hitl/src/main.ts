/**
 * The seed's human-in-the-loop weather flow across two processes:
 *
 *   tsx src/main.ts start  [--state result.json]   runs until approval is needed, writes the state, exits
 *   tsx src/main.ts resume [--state result.json]   reads it, asks on the terminal, resumes the run
 *
 * Runs offline on scripted models; each process rebuilds the same agent graph.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import readline from 'node:readline/promises';
import { RunState, run } from '@baton/core';
import { checkResumable, inspectRunState } from '@baton/hitl-state';
import { QUESTION, buildAgents, firstProcessModel, resumingProcessModel } from './agents.js';

async function confirm(rl: readline.Interface, question: string): Promise<boolean> {
  const answer = (await rl.question(`${question} (y/n): `)).trim().toLowerCase();
  return answer === 'y' || answer === 'yes';
}

async function start(file: string): Promise<void> {
  const { agent } = buildAgents(firstProcessModel());
  const result = await run(agent, QUESTION);
  if (result.interruptions.length === 0) {
    console.log(result.finalOutput);
    return;
  }
  // Storing: from here on the run can continue in another process, hours later.
  await fs.writeFile(file, JSON.stringify(result.state, null, 2), 'utf-8');
  const summary = inspectRunState(await fs.readFile(file, 'utf-8'));
  const pending = summary.supported ? summary.pendingApprovals.map((a) => `${a.toolName} ${a.arguments}`).join(', ') : '';
  console.log(`Paused for approval (${pending}). State written to ${file}.`);
  console.log(`Resume with: tsx src/main.ts resume --state ${file}`);
}

async function resume(file: string): Promise<number> {
  const { agent } = buildAgents(resumingProcessModel());
  const storedState = await fs.readFile(file, 'utf-8');
  const report = await checkResumable(agent, storedState);
  if (!report.ok) {
    for (const issue of report.issues) console.error(`${issue.kind} at ${issue.path}: ${issue.message}`);
    return 1;
  }
  const state = await RunState.fromString(agent, storedState);
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    for (const interruption of state.getInterruptions()) {
      const confirmed = await confirm(
        rl,
        `Agent ${interruption.agent.name} would like to use the tool ${interruption.name} with "${interruption.arguments}". Do you approve?`,
      );
      const decision = { decidedBy: os.userInfo().username, reason: 'answered on the terminal' };
      if (confirmed) state.approve(interruption, decision);
      else state.reject(interruption, decision);
    }
  } finally {
    rl.close();
  }
  const result = await run(agent, state);
  if (result.interruptions.length > 0) {
    await fs.writeFile(file, JSON.stringify(result.state, null, 2), 'utf-8');
    console.log(`Paused again for approval. State written to ${file}.`);
    return 0;
  }
  await fs.rm(file, { force: true });
  console.log(result.finalOutput);
  return 0;
}

const [command = 'start', ...rest] = process.argv.slice(2);
const stateIndex = rest.indexOf('--state');
const file = stateIndex >= 0 && rest[stateIndex + 1] ? rest[stateIndex + 1]! : 'result.json';

try {
  if (command === 'start') await start(file);
  else if (command === 'resume') process.exitCode = await resume(file);
  else {
    console.error('usage: tsx src/main.ts start|resume [--state result.json]');
    process.exitCode = 2;
  }
} catch (error) {
  console.dir(error, { depth: null });
  process.exitCode = 1;
}
