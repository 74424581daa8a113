// A hostile Streamable HTTP server (issue 17 items 1 and 3): an oversized SSE event that carries a response fails
// that request at once — as an oversized stdio line does — instead of leaving it to its timeout, wherever the id
// sits in the event; deeply nested results arrive cut to the wire depth limit, as JSON bodies or SSE events.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jsonDepth } from '../../../electron/core/ingress/depth.js';
import { WIRE_MAX_DEPTH } from '../../../electron/core/ingress/limits.js';
import { createTransport } from '../../../electron/core/transports/create-transport.js';
import { LIMIT_EXCEEDED_RPC_CODE } from '../../../electron/core/transports/stdout-messages.js';
import type { OpenedTransport } from '../../../electron/core/transports/transport-factory.js';
import { collectLog, firstText, legacyClient, remoteConfig, startHttpFixture, type LogLine } from './helpers.js';

let fixture: Awaited<ReturnType<typeof startHttpFixture>>;
const opened: OpenedTransport[] = [];

beforeAll(async () => {
  fixture = await startHttpFixture('hostile-http.ts');
}, 60_000);
afterAll(async () => {
  await fixture.stop();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.release()));
});

async function connect(path: string): Promise<{ client: ReturnType<typeof legacyClient>; lines: LogLine[] }> {
  const { log, lines } = collectLog();
  const o = createTransport({
    config: remoteConfig('hostile', 'http', new URL(path, fixture.url).href, { limits: { messageBytes: 1024 * 1024 } }),
    env: {},
    log,
  });
  opened.push(o);
  const client = legacyClient();
  await client.connect(o.transport);
  return { client, lines };
}

describe('an oversized SSE event that answers a request', () => {
  it.each(['/id-first', '/id-last', '/id-hidden'])('fails that request at once (%s), and the session goes on', async (path) => {
    const { client } = await connect(path);
    const error = await client.callTool({ name: 'big', arguments: { bytes: 3 * 1024 * 1024 } }, { timeout: 120_000 }).then(
      () => new Error('expected a rejection'),
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: LIMIT_EXCEEDED_RPC_CODE });
    // Refused by the limit, not by the 120 s request timeout.
    expect(String((error as Error).message)).toMatch(/larger than the 1 MiB limit/);
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
    await client.close();
  });
});

describe('deep results over HTTP', () => {
  it.each(['/json', '/sse'])('are cut to the wire depth limit before parsing (%s)', async (path) => {
    const { client, lines } = await connect(path);
    const result = await client.callTool({ name: 'deep', arguments: { depth: 100_000 } });
    expect(jsonDepth(result.structuredContent)).toBeLessThanOrEqual(WIRE_MAX_DEPTH);
    expect(JSON.stringify(result)).toContain('nested deeper than 512 levels');
    expect(lines.some((l) => /nested deeper than 512 levels/.test(l.text))).toBe(true);
    await client.close();
  });
});
