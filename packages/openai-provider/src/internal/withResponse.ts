/** What an `openai` client's `create(...)` returns: an `APIPromise` (with `withResponse()`), or a plain promise from a wrapped or mocked client. */
type CreateResult = PromiseLike<unknown> & { withResponse?: () => Promise<{ data: unknown; request_id?: string | null }> };

/**
 * The response data and its request id. `withResponse()` is used only when the client offers it:
 * a user's wrapper or mock that returns a plain promise works too (the request id then comes
 * from the data's `_request_id`, when present).
 */
export async function withResponse(result: unknown): Promise<{ data: unknown; requestId: string | undefined }> {
  const created = result as CreateResult;
  if (typeof created?.withResponse === 'function') {
    const { data, request_id } = await created.withResponse();
    return { data, requestId: request_id ?? undefined };
  }
  const data = await created;
  const requestId = (data as { _request_id?: unknown } | null | undefined)?._request_id;
  return { data, requestId: typeof requestId === 'string' ? requestId : undefined };
}
