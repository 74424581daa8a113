// Turns a call's outcome into the tools/call result a gateway client receives. The client gets the same bounded
// presentation the UI shows (text within its budget with a truncation marker, checked media, notices, links,
// embedded resources shortened), never the raw envelope; structured content passes only when it fits the same
// text budget. Host-side failures (refused, timed out, needs sign-in) are tool-level errors with plain reasons.
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/server';
import type { CallOutcome } from '../../../shared/domains/calls.js';
import { isObject, type JsonObject } from '../json.js';

/** A tool-level error result with one text block. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** The message a gateway client sees for a failure of a call that did not produce a server result. */
export function failureMessage(outcome: CallOutcome, serverName: string): string {
  const code = outcome.error?.code;
  if (code === 'authorization_required' || code === 'auth_required')
    return `${serverName} needs you to sign in. Open Switchboard and sign in to ${serverName}, then try again.`;
  if (code === 'approval_required')
    return `${serverName} is waiting for its launch to be approved. Open Switchboard and approve it, then try again.`;
  return outcome.error?.message ?? 'The call failed.';
}

/** The result for a finished call. `raw` is the audited result when one was kept. */
export function toCallToolResult(
  outcome: CallOutcome,
  raw: unknown,
  opts: { serverName: string; outputSchema: boolean; structuredBudget: number },
): CallToolResult {
  const p = outcome.presentation;
  const serverResult = isObject(raw) && Array.isArray(raw.content);
  if (outcome.status !== 'ok' && !(outcome.status === 'error' && outcome.error?.code === 'tool_error' && serverResult)) {
    return toolError(failureMessage(outcome, opts.serverName));
  }
  const content: ContentBlock[] = [];
  if (p.text.length > 0) content.push({ type: 'text', text: p.text });
  for (const m of p.media) {
    if (m.kind === 'image') content.push({ type: 'image', data: m.data, mimeType: m.mimeType });
    else content.push({ type: 'audio', data: m.data, mimeType: m.mimeType });
  }
  for (const r of p.resources) {
    content.push({ type: 'resource', resource: { uri: r.uri, ...(r.mimeType ? { mimeType: r.mimeType } : {}), text: r.text ?? '' } });
  }
  for (const l of p.links) {
    content.push({ type: 'resource_link', uri: l.uri, name: l.name ?? l.uri, ...(l.mimeType ? { mimeType: l.mimeType } : {}) });
  }
  const notices = [...p.notices];
  let structured: JsonObject | undefined;
  const rawStructured = isObject(raw) ? raw.structuredContent : undefined;
  if (isObject(rawStructured)) {
    const size = Buffer.byteLength(JSON.stringify(rawStructured), 'utf8');
    if (size <= opts.structuredBudget) structured = rawStructured;
    else
      notices.push(
        `Structured content (${size} bytes) is over the ${opts.structuredBudget}-byte budget and was left out; it is in Switchboard's call history.`,
      );
  }
  if (notices.length > 0) content.push({ type: 'text', text: `[Switchboard] ${notices.join(' ')}` });
  const missingStructured = opts.outputSchema && structured === undefined && !p.isError;
  if (content.length === 0) content.push({ type: 'text', text: structured ? JSON.stringify(structured) : '' });
  return {
    content,
    ...(structured ? { structuredContent: structured } : {}),
    ...(p.isError || missingStructured ? { isError: true } : {}),
  };
}
