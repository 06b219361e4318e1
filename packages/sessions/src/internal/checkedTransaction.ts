import { MemorySession, type SessionHistoryTransaction, type SessionHistoryTransactionArgs } from '@baton/core';
import { UserError, type AgentInputItem } from '@baton/types';
import { canonicalText } from './itemCodec.js';

/** A history transaction as it will be applied: plain data, and a fingerprint to recognize a retry. */
export interface CheckedTransaction {
  readonly operationId: string;
  readonly transaction: SessionHistoryTransaction;
  readonly fingerprint: string;
}

/**
 * Checks a transaction by the rules of `MemorySession` (the same fields, the same plain-data items,
 * the same errors), by applying it to a scratch one: for `replace_suffix`, a scratch history made of
 * the expected suffix, so that only the database's history can fail the precondition. The envelope
 * (`operationId`, `transaction`) is read once.
 */
export async function checkTransaction(args: SessionHistoryTransactionArgs): Promise<CheckedTransaction> {
  if (typeof args !== 'object' || args === null) throw new UserError('Session history transaction must be an object.');
  let operationId: string;
  let transaction: SessionHistoryTransaction;
  try {
    ({ operationId, transaction } = args);
  } catch {
    throw new UserError('Session history transaction arguments are invalid.');
  }
  const scratch = new MemorySession();
  if (transaction?.type === 'replace_suffix') {
    await scratch.applyHistoryTransaction({ operationId: 'expected-suffix', transaction: { type: 'append_items', items: transaction.expectedSuffix } });
    const expectedSuffix = await scratch.getItems();
    await scratch.applyHistoryTransaction({ operationId, transaction });
    return checked(operationId, { type: 'replace_suffix', expectedSuffix, replacement: await scratch.getItems() });
  }
  await scratch.applyHistoryTransaction({ operationId, transaction });
  return checked(operationId, { type: 'append_items', items: await scratch.getItems() });
}

function checked(operationId: string, transaction: SessionHistoryTransaction): CheckedTransaction {
  return { operationId, transaction, fingerprint: canonicalText(transaction) };
}

/** Whether a history ends with `suffix` (compared as data). */
export function endsWith(history: readonly AgentInputItem[], suffix: readonly AgentInputItem[]): boolean {
  return history.length >= suffix.length && canonicalText(history.slice(history.length - suffix.length)) === canonicalText(suffix);
}
