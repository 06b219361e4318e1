import { describe, expect, it } from 'vitest';
import { mcpServersExample } from '../src/mcp/mcpServers.js';

describe('MCP example', () => {
  it('an agent with a stdio and a Streamable HTTP server: the write waits for approval, resumes from a string, and no server stays connected', async () => {
    const lines: string[] = [];
    const outcome = await mcpServersExample((line) => void lines.push(line));
    expect(outcome.toolsOffered).toEqual(['read_text_file', 'write_file', 'list_directory', 'echo', 'get_sum']);
    expect(outcome.pausedOn).toEqual([expect.stringMatching(/^write_file \{"path":".*notes\.txt","content":"Total: 1234"\}$/)]);
    expect(outcome.sum).toBe('{"type":"text","text":"The sum of 1200 and 34 is 1234."}');
    expect(outcome.fileContent).toBe('Total: 1234');
    expect(outcome.finalOutput).toBe('The total is 1234; I wrote it to notes.txt.');
    expect(outcome.serversLeftConnected).toBe(false);
    expect(lines).toContain('servers left connected: false');
  });
});
