import { describe, expect, it } from 'vitest';
import { preferJson } from '../../../electron/core/gateway/json-answer.js';

const post = (accept: string): Request =>
  new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { accept, 'content-type': 'application/json' }, body: '{}' });
const sse = (text: string): Response =>
  new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' } });
const answer = { jsonrpc: '2.0', id: 1, result: { content: [] } };

describe('preferJson', () => {
  it('turns a stream holding only a priming event and the answer into a JSON body', async () => {
    const r = await preferJson(
      post('application/json, text/event-stream'),
      sse(`id: p\ndata: \n\nevent: message\nid: 1\ndata: ${JSON.stringify(answer)}\n\n`),
    );
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.headers.get('mcp-session-id')).toBe('s1');
    expect(await r.json()).toEqual(answer);
  });

  it('keeps the stream, byte for byte, when a progress notification comes before the answer', async () => {
    const text = `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })}\n\ndata: ${JSON.stringify(answer)}\n\n`;
    const r = await preferJson(post('application/json, text/event-stream'), sse(text));
    expect(r.headers.get('content-type')).toBe('text/event-stream');
    expect(await r.text()).toBe(text);
  });

  it('keeps the stream when the client does not accept JSON', async () => {
    const r = await preferJson(post('text/event-stream'), sse(`data: ${JSON.stringify(answer)}\n\n`));
    expect(r.headers.get('content-type')).toBe('text/event-stream');
  });
});
