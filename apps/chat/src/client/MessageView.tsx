import type { DynamicToolUIPart, UIMessage } from 'ai';

/** A streaming tool's progress (`data-tool-progress`, sent by the server as a data part: live, never history). */
interface ToolProgress {
  toolCallId: string;
  toolName: string;
  status: 'running' | 'done' | 'failed' | 'interrupted';
  notes: Array<{ data: unknown; tag?: string }>;
}

type Decide = (approvalId: string, approved: boolean) => void;

export function MessageView({ message, onDecision }: { message: UIMessage; onDecision: Decide }) {
  const progress = new Map<string, ToolProgress>();
  for (const part of message.parts) if (part.type === 'data-tool-progress') progress.set((part.data as ToolProgress).toolCallId, part.data as ToolProgress);
  return (
    <article className={`bubble ${message.role}`} data-role={message.role}>
      {message.parts.map((part, index) => {
        switch (part.type) {
          case 'text':
            return (
              <p key={index} className="text">
                {part.text}
              </p>
            );
          case 'reasoning':
            return (
              <details key={index} className="reasoning">
                <summary>Reasoning</summary>
                {part.text}
              </details>
            );
          case 'dynamic-tool':
            return <ToolCard key={part.toolCallId} part={part} progress={progress.get(part.toolCallId)} onDecision={onDecision} />;
          default:
            return null;
        }
      })}
    </article>
  );
}

function ToolCard({ part, progress, onDecision }: { part: DynamicToolUIPart; progress: ToolProgress | undefined; onDecision: Decide }) {
  const last = progress?.notes.at(-1)?.data as { pct?: number; label?: string } | undefined;
  return (
    <div className="tool-card" data-tool={part.toolName} data-state={part.state}>
      <div className="tool-head">
        <span className="tool-name">{part.toolName}</span>
        <code className="tool-input">{JSON.stringify(part.input)}</code>
      </div>
      {progress && part.state !== 'output-available' && (
        <div className="progress" data-pct={last?.pct ?? 0} data-status={progress.status}>
          <div className="bar" style={{ width: `${last?.pct ?? 0}%` }} />
          <span className="progress-label">{last?.label ?? 'Starting…'}</span>
        </div>
      )}
      {part.state === 'approval-requested' && (
        <div className="approval">
          <span>This needs your approval.</span>
          <button type="button" className="approve" onClick={() => onDecision(part.approval.id, true)}>
            Approve
          </button>
          <button type="button" className="reject" onClick={() => onDecision(part.approval.id, false)}>
            Reject
          </button>
        </div>
      )}
      {part.state === 'approval-responded' && <div className="decided">{part.approval.approved ? 'Approved' : 'Rejected'} — resuming…</div>}
      {part.state === 'output-available' && <div className="tool-output">{typeof part.output === 'string' ? part.output : JSON.stringify(part.output)}</div>}
      {part.state === 'output-error' && <div className="tool-output error">{part.errorText}</div>}
      {part.state === 'output-denied' && <div className="tool-output">Rejected.</div>}
    </div>
  );
}
