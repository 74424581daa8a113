// The built-in demo MCP server, shipped inside the app and run with the app's own runtime
// over stdio, so a newcomer sees a working connection within a minute.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

function createDemoServer(): McpServer {
  const server = new McpServer(
    { name: 'switchboard-demo', title: 'Switchboard demo server', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } }, instructions: 'A demo server bundled with Switchboard. Try the echo and add tools.' },
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
  return server;
}

serveStdio(createDemoServer);
