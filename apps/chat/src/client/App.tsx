import { useEffect, useState } from 'react';
import type { UIMessage } from 'ai';
import { Chat } from './Chat.js';
import { chatIdFromAddress } from './chatId.js';

/** Loads the chat's conversation from the server (the database), then shows it. */
export function App() {
  const [chatId] = useState(chatIdFromAddress);
  const [history, setHistory] = useState<UIMessage[] | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);

  useEffect(() => {
    fetch(`/api/chats/${encodeURIComponent(chatId)}`)
      .then(async (response) => {
        if (!response.ok) throw new Error(await response.text());
        return (await response.json()) as { messages: UIMessage[] };
      })
      .then((body) => setHistory(body.messages))
      .catch((error: unknown) => setFailure(error instanceof Error ? error.message : String(error)));
  }, [chatId]);

  if (failure !== undefined) return <p className="error-box">Could not load the chat: {failure}</p>;
  if (history === undefined) return <p className="loading">Loading the conversation…</p>;
  return <Chat id={chatId} initialMessages={history} />;
}
