/** The chat's id, kept in the page's address (`?chat=<id>`) so that a reload opens the same chat; a new one when there is none. */
export function chatIdFromAddress(): string {
  const url = new URL(window.location.href);
  const existing = url.searchParams.get('chat');
  if (existing !== null && existing !== '') return existing;
  const id = crypto.randomUUID();
  url.searchParams.set('chat', id);
  window.history.replaceState(null, '', url);
  return id;
}
