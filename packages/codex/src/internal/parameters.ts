import { UserError } from '@baton/core';
import { z } from 'zod';

/** One piece of a Codex task: text, or an image file on the machine Codex runs on. */
const textInput = z
  .object({
    type: z.literal('text'),
    text: z.string().trim().min(1, 'A text input needs a non-empty "text".'),
  })
  .strict();

const localImageInput = z
  .object({
    type: z.literal('local_image'),
    path: z.string().trim().min(1, 'A local_image input needs a non-empty "path".'),
  })
  .strict();

const inputs = z
  .array(z.union([textInput, localImageInput]))
  .min(1, 'The Codex tool needs at least one input.')
  .describe('What Codex is asked to do, in order: text, and local images by path. At least one.');

/** What the model fills in by default: the task, and optionally a Codex thread to continue. */
export const codexParameters = z
  .object({
    inputs,
    threadId: z
      .string()
      .trim()
      .min(1, '"threadId", when given, must not be empty.')
      .nullable()
      .default(null)
      .describe('The id of a Codex thread to continue; null starts a new one (unless the tool is set up with one).'),
  })
  .strict();

/** With `useRunContextThreadId` the thread comes from the run's context, so the model names none. */
export const codexRunContextParameters = z.object({ inputs }).strict();

export type CodexToolParametersSchema = typeof codexParameters | typeof codexRunContextParameters;

export type CodexInputItem = { type: 'text'; text: string } | { type: 'local_image'; path: string };

/** The call's arguments, trimmed, as the tool uses them. */
export interface CodexCallArguments {
  inputs: CodexInputItem[];
  threadId?: string;
}

export function normalizeArguments(raw: { inputs: CodexInputItem[]; threadId?: string | null }): CodexCallArguments {
  const inputs = raw.inputs.map((item): CodexInputItem =>
    item.type === 'text' ? { type: 'text', text: item.text.trim() } : { type: 'local_image', path: item.path.trim() },
  );
  const threadId = normalizeThreadId(raw.threadId, 'the "threadId" argument');
  return threadId ? { inputs, threadId } : { inputs };
}

/** A thread id trimmed; empty, null or undefined is none, anything but a string a `UserError`. */
export function normalizeThreadId(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new UserError(`Codex tool: ${where} must be a string, got ${typeof value}.`);
  return value.trim() || undefined;
}
