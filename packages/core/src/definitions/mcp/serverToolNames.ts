import type { MCPServer, MCPTool } from '@baton/types';
import { toFunctionToolName } from '../internal/names.js';

/**
 * Tool names that carry their MCP server (`MCPConfig.includeServerInToolNames`): a tool `search` of
 * server `docs` is offered as `mcp_docs__search`, so servers with tools of the same name can sit
 * side by side. Names keep to the 64 characters a model accepts: a longer one is cut and ends with
 * `_` and 8 hex digits of the SHA-1 of the server and tool names. The same stable hash tells apart
 * names that would clash (two servers whose names read the same once made safe, or a name an agent
 * already uses for a function tool or handoff); a clash that remains takes the next hash of a
 * counter-extended seed. The call still reaches the server under the tool's own name.
 */

const MAX_NAME_LENGTH = 64;
const HASH_LENGTH = 8;

interface Candidate {
  readonly server: number;
  readonly tool: number;
  readonly base: string;
  readonly seed: string;
  initial: string;
}

/** The prefixed name of every listed tool, by server and tool index (the listings' order). */
export async function serverPrefixedToolNames(
  servers: readonly MCPServer[],
  listings: ReadonlyArray<readonly MCPTool[]>,
  reservedNames: Iterable<string> = [],
): Promise<string[][]> {
  const reserved = new Set(reservedNames);
  const candidates: Candidate[] = [];
  const baseCounts = new Map<string, number>();
  servers.forEach((server, serverIndex) => {
    (listings[serverIndex] ?? []).forEach((listed, toolIndex) => {
      const base = `mcp_${safePart(server.name, 'server')}__${safePart(listed.name, 'tool')}`;
      const seed = `${server.name}\0${listed.name}`;
      baseCounts.set(toFunctionToolName(base), (baseCounts.get(toFunctionToolName(base)) ?? 0) + 1);
      candidates.push({ server: serverIndex, tool: toolIndex, base, seed, initial: base });
    });
  });
  for (const candidate of candidates) {
    const name = toFunctionToolName(candidate.base);
    candidate.initial = await shorten(candidate.base, candidate.seed, (baseCounts.get(name) ?? 0) > 1 || reserved.has(name));
  }
  const names: string[][] = listings.map((listing) => listing.map(() => ''));
  const used = new Set(reserved);
  const ordered = [...candidates].sort(
    (left, right) => left.initial.localeCompare(right.initial) || left.seed.localeCompare(right.seed) || left.server - right.server || left.tool - right.tool,
  );
  for (const candidate of ordered) {
    let name = candidate.initial;
    for (let attempt = 1; used.has(toFunctionToolName(name)); attempt += 1) name = await shorten(candidate.base, `${candidate.seed}\0${attempt}`, true);
    used.add(toFunctionToolName(name));
    names[candidate.server]![candidate.tool] = toFunctionToolName(name);
  }
  return names;
}

/** ASCII letters, digits, `_` and `-` kept, anything else `_`, no leading or trailing `_` / `-`. */
function safePart(value: string, fallback: string): string {
  const safe = Array.from(value, (char) => (/^[A-Za-z0-9_-]$/.test(char) ? char : '_'))
    .join('')
    .replace(/^[_-]+|[_-]+$/g, '');
  return safe === '' ? fallback : safe;
}

/** The name as it is when it fits (and no hash is asked for), else cut to fit with `_<hash>` at the end. */
async function shorten(base: string, seed: string, forceHash: boolean): Promise<string> {
  if (!forceHash && base.length <= MAX_NAME_LENGTH) return base;
  const suffix = `_${(await sha1Hex(seed)).slice(0, HASH_LENGTH)}`;
  const stem = base.slice(0, MAX_NAME_LENGTH - suffix.length).replace(/[_-]+$/g, '') || 'mcp';
  return `${stem}${suffix}`;
}

async function sha1Hex(value: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-1', new TextEncoder().encode(value));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
