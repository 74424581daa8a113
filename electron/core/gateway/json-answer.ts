// Plain JSON answers on 2025-11-25 sessions. The SDK's session transport answers every POST over an SSE stream;
// framing and parsing that stream costs a client several times a plain JSON body. When the client accepts
// application/json and nothing but the answers comes before the stream ends (no progress, log, elicitation or
// sampling request), the answers are sent as one JSON body; as soon as anything else arrives, the response is the
// SSE stream itself, from its first byte, so what streams still streams.

/** An SSE message's data lines joined, or undefined for an event without data (a priming event, a comment). */
function dataOf(event: string): string | undefined {
  let data: string | undefined;
  for (const line of event.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const value = line.slice(line.startsWith('data: ') ? 6 : 5);
    data = data === undefined ? value : `${data}\n${value}`;
  }
  return data === undefined || data === '' ? undefined : data;
}

function isAnswer(message: unknown): boolean {
  return typeof message === 'object' && message !== null && !('method' in message) && ('result' in message || 'error' in message);
}

/** `response` (from the session transport for `request`) as plain JSON when that is possible, else unchanged. */
export async function preferJson(request: Request, response: Response): Promise<Response> {
  if (request.method !== 'POST' || response.status !== 200 || !response.body) return response;
  if (!(request.headers.get('accept') ?? '').includes('application/json')) return response;
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return response;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const seen: Uint8Array[] = [];
  // The answers' data as the transport serialized them: the body repeats them rather than serializing them again.
  const answers: string[] = [];
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    seen.push(value);
    text += decoder.decode(value, { stream: true });
    let end: number;
    let streaming = false;
    while ((end = text.search(/\r?\n\r?\n/)) >= 0) {
      const event = text.slice(0, end);
      text = text.slice(end + (text[end] === '\r' ? 4 : 2));
      const data = dataOf(event);
      if (data === undefined) continue;
      let message: unknown;
      try {
        message = JSON.parse(data);
      } catch {
        streaming = true;
        break;
      }
      if (!isAnswer(message)) {
        streaming = true;
        break;
      }
      answers.push(data);
    }
    if (streaming) return replay(response, seen, reader);
  }
  if (answers.length === 0) return replay(response, seen, reader);
  const body = answers.length === 1 ? answers[0]! : `[${answers.join(',')}]`;
  // A known length: the body goes out in one write with its headers, without chunked framing.
  const headers = new Headers({ 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body, 'utf8')) });
  const session = response.headers.get('mcp-session-id');
  if (session !== null) headers.set('mcp-session-id', session);
  return new Response(body, { status: 200, headers });
}

/** The SSE response as it was: the bytes already read, then the rest of the stream. */
function replay(response: Response, seen: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of seen) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}
