// The demo page: reads one run's events over SSE with @baton/streaming's decoder and renders them.
// Top-level messages go to the conversation; streaming tools get cards beside it; a nested agent
// (a streaming agent tool) gets a collapsible inner panel inside its card.
import { RunEventStreamError, readRunEvents, unwrapStreamingToolContext } from '/vendor/baton-streaming-client.js';

const $ = (selector) => document.querySelector(selector);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Renders a run's messages and tool calls into one element (streaming text as it arrives). */
class Transcript {
  constructor(container) {
    this.container = container;
    this.bubble = null;
  }
  delta(text) {
    if (!this.bubble) {
      this.bubble = el('div', 'bubble assistant streaming');
      this.container.append(this.bubble);
    }
    this.bubble.textContent += text;
  }
  message(item) {
    const text = item.rawItem.content.map((part) => (part.type === 'output_text' ? part.text : '')).join('');
    if (!this.bubble) {
      this.bubble = el('div', 'bubble assistant');
      this.container.append(this.bubble);
    }
    this.bubble.textContent = text;
    this.bubble.classList.remove('streaming');
    this.bubble.dataset.agent = item.agent.name;
    this.bubble = null;
  }
  line(text, className = '') {
    this.container.append(el('div', `call ${className}`.trim(), text));
  }
}

let scopes; // path key → { transcript, tools, summary? }
let cards; // tool call id → card element
let callScopes; // tool call id → the scope whose run made the call
let controller;
let eventCount;

function reset() {
  $('#conversation').replaceChildren();
  $('#activity').replaceChildren();
  scopes = new Map([['', { transcript: new Transcript($('#conversation')), tools: $('#activity') }]]);
  cards = new Map();
  callScopes = new Map();
  eventCount = 0;
}

function setStatus(status, text) {
  document.body.dataset.status = status;
  $('#status').textContent = text;
}

/** The scope of a nested run: the inner panel of the card of the tool call that runs it. */
function scopeFor(path) {
  const key = path.map((frame) => frame.toolCallId).join('/');
  let scope = scopes.get(key);
  if (scope) return scope;
  const last = path[path.length - 1];
  const card = cardFor(last.toolCallId, last.toolName, scopeFor(path.slice(0, -1)));
  const details = el('details', 'inner-run');
  details.open = true;
  details.dataset.callId = last.toolCallId;
  const summary = el('summary', '', `Inner run · ${last.toolName}`);
  const body = el('div', 'inner-body');
  details.append(summary, el('p', 'inner-note', 'A nested agent run, shown for transparency: only its final answer goes back to the caller.'), body);
  card.append(details);
  scope = { transcript: new Transcript(body), tools: body, summary, toolName: last.toolName };
  scopes.set(key, scope);
  return scope;
}

function cardFor(callId, toolName, fallbackScope) {
  let card = cards.get(callId);
  if (card) return card;
  const scope = callScopes.get(callId) ?? fallbackScope ?? scopes.get('');
  card = el('article', 'tool-card');
  card.dataset.callId = callId;
  card.dataset.tool = toolName;
  card.dataset.state = 'running';
  const header = el('header');
  header.append(el('span', 'name', toolName), el('span', 'state', 'running'));
  card.append(header);
  scope.tools.append(card);
  cards.set(callId, card);
  return card;
}

function setCardState(card, state, text) {
  card.dataset.state = state;
  card.querySelector('.state').textContent = text ?? state;
}

function showProgress(card, data, tag) {
  let bar = card.querySelector(':scope > .progress');
  if (!bar) {
    bar = el('div', 'progress');
    bar.append(el('div'));
    card.querySelector('header').after(bar, el('div', 'progress-label'));
  }
  const pct = typeof data === 'object' && data !== null && typeof data.pct === 'number' ? Math.max(0, Math.min(100, data.pct)) : undefined;
  if (pct !== undefined) {
    bar.dataset.pct = String(pct);
    bar.firstChild.style.width = `${pct}%`;
  }
  const label = typeof data === 'object' && data !== null && typeof data.label === 'string' ? data.label : JSON.stringify(data);
  card.querySelector(':scope > .progress-label').textContent = `${pct !== undefined ? `${pct}% · ` : ''}${label}${tag && tag !== 'progress' ? ` [${tag}]` : ''}`;
}

function handleItem(event, scope) {
  const item = event.item;
  if (scope.summary && item.agent) scope.summary.textContent = `Inner run · ${scope.toolName} → ${item.agent.name}`;
  switch (event.name) {
    case 'message_output_created':
      scope.transcript.message(item);
      break;
    case 'tool_called':
      callScopes.set(item.rawItem.callId, scope);
      scope.transcript.line(`→ ${item.rawItem.name}(${item.rawItem.arguments})`);
      break;
    case 'tool_output':
      scope.transcript.line(`← ${item.rawItem.name}: ${typeof item.output === 'string' ? item.output : JSON.stringify(item.output)}`, 'output');
      break;
    case 'tool_approval_requested':
      scope.transcript.line(`⏸ ${item.toolName} needs approval`);
      break;
    case 'handoff_occurred':
      scope.transcript.line(`⇢ handed off to ${item.targetAgent?.name ?? '?'}`);
      break;
    default:
      break;
  }
}

function handle(event) {
  eventCount += 1;
  if (event.event_type === 'run_end') {
    const text =
      event.status === 'interrupted'
        ? `Paused: ${event.interruptions.length} approval(s) pending.`
        : `Completed · ${eventCount} events · final answer by ${event.lastAgent.name}.`;
    setStatus(event.status, text);
    return;
  }
  const { path, event: inner } = unwrapStreamingToolContext(event);
  const scope = scopeFor(path);
  switch (inner.event_type) {
    case 'raw_model_stream_event':
      if (inner.data.type === 'output_text_delta') scope.transcript.delta(inner.data.delta);
      break;
    case 'run_item_stream_event':
      handleItem(inner, scope);
      break;
    case 'agent_updated_stream_event':
      scope.transcript.line(`agent: ${inner.agent.name}`);
      break;
    case 'tool_stream_start_event':
      setCardState(cardFor(inner.toolCallId, inner.toolName), 'running');
      break;
    case 'notify_stream_event':
      showProgress(cardFor(inner.toolCallId, inner.toolName), inner.data, inner.tag);
      break;
    case 'tool_stream_end_event': {
      const card = cardFor(inner.toolCallId, inner.toolName);
      if (inner.error) setCardState(card, 'error', `failed: ${inner.error.message}`);
      else if (inner.interruptions) setCardState(card, 'paused', 'waiting for approval');
      else setCardState(card, 'done');
      break;
    }
    default:
      break;
  }
  if (document.body.dataset.status === 'running') $('#status').textContent = `Streaming… ${eventCount} events`;
}

async function start(url, userText) {
  controller?.abort();
  reset();
  controller = new AbortController();
  const { signal } = controller;
  if (userText) $('#conversation').append(el('div', 'bubble user', userText));
  setStatus('running', 'Streaming…');
  $('#stop').disabled = false;
  $('#run').disabled = true;
  try {
    const response = await fetch(url, { signal, headers: { accept: 'text/event-stream' } });
    for await (const event of readRunEvents(response, { signal })) handle(event);
  } catch (error) {
    if (signal.aborted) {
      setStatus('cancelled', 'Stopped. Closing the connection cancelled the run on the server.');
    } else if (error instanceof RunEventStreamError) {
      setStatus('error', `${error.name} (${error.reason}): ${error.message}`);
      $('#activity').append(el('div', 'error-box', `The stream broke: ${error.reason}. Events received before the break are shown; the partial event was dropped.`));
    } else {
      setStatus('error', `${error?.name ?? 'Error'}: ${error?.message ?? String(error)}`);
    }
  } finally {
    $('#stop').disabled = true;
    $('#run').disabled = false;
  }
}

$('#ask').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('#input').value.trim() || 'Plan a trip to Lisbon';
  const params = new URLSearchParams({ input });
  const delay = new URLSearchParams(location.search).get('delay');
  if (delay) params.set('delay', delay);
  void start(`/api/run?${params}`, input);
});
$('#stop').addEventListener('click', () => controller?.abort());
$('#broken').addEventListener('click', () => void start('/api/broken', ''));
reset();
document.body.dataset.ready = 'true';
