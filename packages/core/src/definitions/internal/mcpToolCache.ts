import type { MCPTool } from '@baton/types';

/**
 * Listings of servers with `cacheToolsList`, by cache key (the server's name, or name and agent
 * for a callable filter). Module state on purpose: the reference shares one cache per process, and
 * `invalidateServerToolsCache(name)` must reach every agent's entry for that server.
 */
const listings = new Map<string, { server: string; tools: readonly MCPTool[] }>();
/** Bumped by an invalidation, so a listing that started before it is not stored after it. */
const generations = new Map<string, number>();

export function cachedListing(key: string): readonly MCPTool[] | undefined {
  return listings.get(key)?.tools;
}

export function listingGeneration(server: string): number {
  return generations.get(server) ?? 0;
}

export function storeListing(key: string, server: string, tools: readonly MCPTool[], generation: number): void {
  if (listingGeneration(server) === generation) listings.set(key, { server, tools });
}

export function dropListings(server: string): void {
  generations.set(server, listingGeneration(server) + 1);
  for (const [key, entry] of listings) if (entry.server === server) listings.delete(key);
}
