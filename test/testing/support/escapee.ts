/**
 * Fixture for the kit's leftover check: a working echo server (SDK v2 `serveStdio`, tool `echo`) that first starts a
 * daemon the way some real servers do: a child in a new session and process group (so a stop that kills the server's
 * group misses it) that ignores SIGTERM. The daemon writes its pid to ESCAPEE_PID_FILE and exits by itself after
 * ESCAPEE_LIFETIME_MS (default 60 s), so a failed run never leaks it for long.
 *
 * Run: node --import tsx test/testing/support/escapee.ts
 */
import { spawn } from 'node:child_process';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const lifetime = Number.parseInt(process.env['ESCAPEE_LIFETIME_MS'] ?? '', 10) || 60_000;
const script = [
  "process.on('SIGTERM', () => {});",
  "if (process.argv[1]) require('node:fs').appendFileSync(process.argv[1], process.pid + '\\n');",
  `setTimeout(() => process.exit(0), ${lifetime});`,
].join('\n');
spawn(process.execPath, ['-e', script, process.env['ESCAPEE_PID_FILE'] ?? ''], { stdio: 'ignore', detached: true }).unref();

serveStdio(() => {
  const server = new McpServer({ name: 'escapee-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { description: 'Echo the text back', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
});
