import type { Session } from '@baton/core';
import { SqliteSession, type SqliteDatabase } from '@baton/sessions';

/** A chat's conversation: a `@baton/sessions` SQLite session keyed by the chat id, in the app's database. */
export function chatSession(db: SqliteDatabase, chatId: string): Session {
  return new SqliteSession(db, { sessionId: chatId });
}
