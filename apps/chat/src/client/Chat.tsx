import { useEffect, useState, type FormEvent } from 'react';
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from 'ai';
import { MessageView } from './MessageView.js';

const SUGGESTIONS = ['Where is order 42?', 'Refund order 42', 'Research eco-friendly packaging'];

/**
 * The chat: `useChat` posts each message to `/api/chat` and reads the UI message stream back. An
 * Approve / Reject (`addToolApprovalResponse`) completes the assistant message, which
 * `sendAutomaticallyWhen` sends back at once: the server resumes the paused run.
 */
export function Chat({ id, initialMessages }: { id: string; initialMessages: UIMessage[] }) {
  const { messages, sendMessage, addToolApprovalResponse, status, error, stop, clearError } = useChat({
    id,
    messages: initialMessages,
    transport: new DefaultChatTransport({ api: '/api/chat' }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';

  // For tests and curious readers: where the chat stands.
  useEffect(() => {
    document.body.dataset.ready = 'true';
    document.body.dataset.status = status;
  }, [status]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = input.trim();
    if (text === '' || busy) return;
    if (error) clearError();
    void sendMessage({ text });
    setInput('');
  };

  return (
    <main className="chat">
      <header>
        <h1>Baton chat</h1>
        <a href="/" className="new-chat">
          New chat
        </a>
      </header>
      <section id="conversation" aria-live="polite">
        {messages.length === 0 && <p className="hint">Ask about an order, ask for a refund, or ask for some research.</p>}
        {messages.map((message) => (
          <MessageView key={message.id} message={message} onDecision={(approvalId, approved) => void addToolApprovalResponse({ id: approvalId, approved, ...(approved ? {} : { reason: 'Rejected in the chat' }) })} />
        ))}
      </section>
      {error && (
        <p className="error-box" role="alert">
          {error.message}
        </p>
      )}
      <form onSubmit={submit}>
        <input id="message" value={input} onChange={(event) => setInput(event.target.value)} placeholder="Type a message…" autoComplete="off" />
        {busy ? (
          <button type="button" id="stop" onClick={() => void stop()}>
            Stop
          </button>
        ) : (
          <button type="submit" id="send" disabled={input.trim() === ''}>
            Send
          </button>
        )}
      </form>
      <nav className="suggestions">
        {SUGGESTIONS.map((text) => (
          <button key={text} type="button" disabled={busy} onClick={() => setInput(text)}>
            {text}
          </button>
        ))}
      </nav>
    </main>
  );
}
