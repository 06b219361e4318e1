import type { AgentInputItem, ReasoningItemIdPolicy, RunItem, Session } from '@baton/types';
import type { RunContext } from '../../definitions/runContext.js';
import { randomUuid } from '../../definitions/internal/uuid.js';
import { isRunContextAwareSession, isSessionHistoryTransactionAwareSession } from '../sessionHistory.js';
import { runItemsToInputItems } from './items.js';
import { fromLatestCompaction } from './latestCompaction.js';
import type { FilteredSessionInput } from './filteredSessionInput.js';
import { sessionSafeItems } from './sessionSafeItems.js';

/**
 * What a run has written to its session so far. It lives in the run's own record, so a nested
 * run of an agent tool (which shares the parent's context) never writes into the parent's session.
 */
export interface SessionProgress {
  readonly session: Session;
  /**
   * Generated items already in the session, by identity: resuming a paused turn drops its approval
   * items and reorders the list, so a count of saved items would skip the outputs that follow.
   */
  readonly saved: WeakSet<RunItem>;
  /** The new input, saved with the first batch of items. */
  pendingInput: AgentInputItem[] | undefined;
  /**
   * With a `callModelInputFilter`: the new input as the model was sent it, saved in place of
   * `pendingInput` (a redacting filter's input never reaches the session unredacted).
   */
  filteredInput?: FilteredSessionInput;
  /** Items a handoff input filter removed from the run's history before they were saved. */
  rewritten: RunItem[];
  /** A model call of this run started: its new input has been sent to the model. */
  inputSentToModel?: boolean;
  /** The run's context, handed to a `RunContextAwareSession` as the last argument of each call. */
  readonly runContext: RunContext<any>;
  /**
   * The run resumed a paused turn, so the session holds tool outputs made here after approval, which
   * no response the provider stored knows: a compaction must start from the session's items
   * (`compactionMode: 'input'`), not from the last response id.
   */
  compactFromInput?: boolean;
  /**
   * The run paused on a turn whose output its output guardrails have yet to see: nothing of it is
   * written until the turn completes (a run not streamed holds its new input too, as the reference's
   * does). A state written now records what the session lacks (`unsavedForSession`).
   */
  held?: boolean;
}

export function newSessionProgress(
  session: Session,
  runContext: RunContext<any>,
  pendingInput: AgentInputItem[] | undefined,
  alreadySaved: readonly RunItem[] = [],
): SessionProgress {
  const saved = new WeakSet<RunItem>();
  for (const item of alreadySaved) saved.add(item);
  return { session, saved, pendingInput, rewritten: [], runContext };
}

/**
 * The session's stored items. A `RunContextAwareSession` receives the run's context (say, to keep
 * each tenant's history apart); any other session is called with no arguments, as before.
 */
export function readSession(session: Session, runContext: RunContext<any>): Promise<AgentInputItem[]> {
  return isRunContextAwareSession(session) ? session.getItems(undefined, runContext) : session.getItems();
}

/**
 * A stored history item as the model is sent it: as the session prepares it, and under the `omit`
 * policy a reasoning item without its id (as the run's own reasoning is sent).
 */
export function historyItemForModelInput(session: Session, item: AgentInputItem, reasoningItemIdPolicy: ReasoningItemIdPolicy | undefined): AgentInputItem {
  const prepared = typeof session.prepareHistoryItemForModelInput === 'function' ? session.prepareHistoryItemForModelInput(item) : item;
  if (reasoningItemIdPolicy !== 'omit' || prepared.type !== 'reasoning' || !('id' in prepared)) return prepared;
  const { id: _id, ...withoutId } = prepared;
  return withoutId;
}

function appendToSession(progress: SessionProgress, items: AgentInputItem[]): Promise<void> {
  const { session, runContext } = progress;
  return isRunContextAwareSession(session) ? session.addItems(items, runContext) : session.addItems(items);
}

/** Keeps the items a handoff input filter is about to drop, so the session still gets them. */
export function keepRewritten(progress: SessionProgress | undefined, items: readonly RunItem[]): void {
  if (!progress) return;
  progress.rewritten.push(...items.filter((item) => !progress.saved.has(item) && !progress.rewritten.includes(item)));
}

/**
 * Appends the new input (once) and the items generated since the last save. A new input holding a
 * compaction item replaces the session's history from that item on (it stands for all before it).
 */
export async function saveToSession(progress: SessionProgress | undefined, generatedItems: readonly RunItem[], reasoningItemIdPolicy?: ReasoningItemIdPolicy): Promise<void> {
  if (!progress) return;
  const compacts = newInputToSave(progress)?.some((item) => item.type === 'compaction') === true;
  const toSave = takeUnsaved(progress, generatedItems, reasoningItemIdPolicy);
  if (compacts) return replaceSessionHistory(progress, fromLatestCompaction(toSave));
  if (toSave.length > 0) await appendToSession(progress, toSave);
}

/**
 * A streamed run that failed after its model call started keeps its new input in its session, as
 * the reference's does (a compaction item in it replaces the history from there); nothing when the
 * input is saved already or was never sent.
 */
export async function saveInputOfFailedStream(progress: SessionProgress | undefined): Promise<void> {
  if (progress?.inputSentToModel !== true) return;
  return saveNewInput(progress);
}

/** Appends the new input (once), nothing of the run's items; a compaction item in it replaces the history from there. */
export async function saveNewInput(progress: SessionProgress): Promise<void> {
  const input = newInputToSave(progress);
  progress.pendingInput = undefined;
  delete progress.filteredInput;
  if (input === undefined || input.length === 0) return;
  const items = sessionSafeItems(input);
  if (items.some((item) => item.type === 'compaction')) return replaceSessionHistory(progress, fromLatestCompaction(items));
  await appendToSession(progress, items);
}

/** Clears the session and writes `items`; when that fails, the previous history is put back and the failure stands. */
async function replaceSessionHistory(progress: SessionProgress, items: AgentInputItem[]): Promise<void> {
  const { session, runContext } = progress;
  const previous = await readSession(session, runContext);
  const clear = () => (isRunContextAwareSession(session) ? session.clearSession(runContext) : session.clearSession());
  try {
    await clear();
    if (items.length > 0) await appendToSession(progress, items);
  } catch (error) {
    await clear();
    if (previous.length > 0) await appendToSession(progress, previous);
    throw error;
  }
}

/** What a session has not received: the run's new input when not written yet, and generated items. */
export interface UnsavedForSession {
  input?: AgentInputItem[];
  items: ReadonlySet<RunItem>;
}

/**
 * What the session lacks, for a state written now or a run resumed with another session: the
 * generated items it was not given (a paused turn held back until its output guardrails see it, the
 * answer an output guardrail blocked, a failed run's items), and while a turn is held (\`held\`) the
 * new input too. Undefined when it lacks nothing.
 */
export function unsavedForSession(progress: SessionProgress | undefined, generatedItems: readonly RunItem[]): UnsavedForSession | undefined {
  if (progress === undefined) return undefined;
  const items = new Set(generatedItems.filter((item) => !progress.saved.has(item)));
  if (progress.held !== true) return items.size === 0 ? undefined : { items };
  const input = newInputToSave(progress);
  return input === undefined ? { items } : { input, items };
}

/** The new input not saved yet: as the input filter last sent it when there is one (nothing while it never ran), else as given. */
function newInputToSave(progress: SessionProgress): AgentInputItem[] | undefined {
  if (progress.pendingInput === undefined) return undefined;
  return progress.filteredInput !== undefined ? progress.filteredInput.items() : progress.pendingInput;
}

/** The new input (once) and the items not saved yet, as input items with their binary data as data URLs; they count as saved from now on. */
function takeUnsaved(progress: SessionProgress, generatedItems: readonly RunItem[], reasoningItemIdPolicy?: ReasoningItemIdPolicy): AgentInputItem[] {
  const fresh = [...progress.rewritten, ...generatedItems].filter((item) => !progress.saved.has(item));
  progress.rewritten = [];
  const toSave = [...(newInputToSave(progress) ?? []), ...runItemsToInputItems(fresh, reasoningItemIdPolicy)];
  progress.pendingInput = undefined;
  delete progress.filteredInput;
  for (const item of fresh) progress.saved.add(item);
  return sessionSafeItems(toSave);
}

/**
 * Appends a blocked turn's items as one history transaction when the session supports them (the
 * store applies it whole or not at all), else with `addItems`. Nothing to write makes no call.
 */
async function appendBlocked(progress: SessionProgress, items: AgentInputItem[]): Promise<void> {
  if (items.length === 0) return;
  const { session, runContext } = progress;
  if (!isSessionHistoryTransactionAwareSession(session)) return appendToSession(progress, items);
  await session.applyHistoryTransaction({ operationId: randomUuid(), transaction: { type: 'append_items', items } }, runContext);
}

/**
 * After an output guardrail tripped, the session still gets the input and the run's items (a tool
 * output the guardrail blocked is already withheld), but not the blocked answer: as the reference,
 * in one history transaction when the session supports them.
 */
export async function saveBlockedRun(progress: SessionProgress | undefined, generatedItems: readonly RunItem[], reasoningItemIdPolicy?: ReasoningItemIdPolicy): Promise<void> {
  let end = generatedItems.length;
  while (end > 0 && generatedItems[end - 1]!.type === 'message_output_item') end -= 1;
  if (!progress) return;
  await appendBlocked(progress, takeUnsaved(progress, generatedItems.slice(0, end), reasoningItemIdPolicy));
}
