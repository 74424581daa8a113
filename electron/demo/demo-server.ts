// The built-in demo MCP server, so a newcomer sees a working connection within a minute. It runs inside the core's
// own process over the SDK's in-memory transport (see builtin-transport.ts): no file path to resolve or persist,
// nothing to spawn, and it works in a packaged app whose RunAsNode fuse is off.
import { setTimeout as sleep } from 'node:timers/promises';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** A fresh instance of the demo server (one per connection). */
export function createDemoServer(): McpServer {
  const server = new McpServer(
    { name: 'switchboard-demo', title: 'Switchboard demo server', version: '1.0.0' },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
      instructions: 'A demo server bundled with Switchboard. Try the echo, add and slow tools, the guide resource and the explain prompt.',
    },
  );
  server.registerTool(
    'echo',
    { title: 'Echo', description: 'Returns the text you send.', inputSchema: z.object({ text: z.string().describe('Text to echo back') }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'add',
    {
      title: 'Add numbers',
      description: 'Adds two numbers.',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      annotations: { readOnlyHint: true },
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool(
    'slow',
    {
      title: 'Slow task',
      description: 'Works for a few seconds, reporting progress; cancel it to see cancellation.',
      inputSchema: z.object({
        seconds: z.number().min(0).max(60).default(5).describe('How long to work'),
        steps: z.number().int().min(1).max(100).default(5).describe('How many progress updates'),
      }),
      annotations: { readOnlyHint: true },
    },
    async ({ seconds, steps }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      const signal = ctx.mcpReq.signal;
      for (let i = 1; i <= steps; i++) {
        try {
          await sleep((seconds * 1000) / steps, undefined, { signal });
        } catch {
          return { content: [{ type: 'text', text: `Cancelled after ${i - 1} of ${steps} steps` }], isError: true };
        }
        if (token !== undefined) {
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: steps, message: `Step ${i} of ${steps}` },
          });
        }
      }
      return { content: [{ type: 'text', text: `Done: ${steps} steps in ${seconds} s` }] };
    },
  );
  server.registerResource(
    'guide',
    'demo://guide',
    { title: 'Demo guide', description: 'What this demo server can do', mimeType: 'text/markdown' },
    (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'text/markdown',
          text: '# Switchboard demo\n\n- `echo` returns your text\n- `add` adds two numbers\n- `slow` shows progress and cancellation\n',
        },
      ],
    }),
  );
  server.registerPrompt(
    'explain',
    { title: 'Explain a topic', description: 'Asks for a short explanation of a topic', argsSchema: z.object({ topic: z.string() }) },
    ({ topic }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Explain ${topic} in three sentences.` } }] }),
  );
  return server;
}
