// Turns a call's outcome into the tools/call result a gateway client receives. The client gets the same bounded
// presentation the UI shows (text within its budget with a truncation marker, checked media, notices, links,
// embedded resources shortened), never the raw envelope; structured content passes only when it fits the same
// text budget. Host-side failures (refused, timed out, needs sign-in) are tool-level errors with plain reasons.
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/server';
import type { CallOutcome } from '../../../shared/domains/calls.js';
import { isObject, type JsonObject } from '../json.js';
import { sanitizeText, truncate } from '../text.js';

/** Nesting accepted in structured content. */
export const STRUCTURED_DEPTH = 64;

/** A copy of JSON with control and bidi characters removed from every string; throws when nested too deep. */
export function sanitizeJson(value: unknown, depth = 0): unknown {
  if (depth > STRUCTURED_DEPTH) throw new RangeError('too deep');
  if (typeof value === 'string') return sanitizeText(value);
  if (Array.isArray(value)) return value.map((v) => sanitizeJson(v, depth + 1));
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) out[sanitizeText(k)] = sanitizeJson(v, depth + 1);
    return out;
  }
  return value;
}

/** A tool-level error result with one text block. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Names of secrets listed in a message: control characters removed, each and the list bounded. */
function secretList(names: readonly string[]): string {
  const shown = names.slice(0, 10).map((n) => truncate(sanitizeText(n), 100));
  const more = names.length > shown.length ? ` and ${names.length - shown.length} more` : '';
  return `${shown.join(', ')}${more}`;
}

/** What a client is told when a launch cannot start because secrets it was approved with are no longer stored. */
export function missingSecretsMessage(serverName: string, names: readonly string[]): string {
  const one = names.length === 1;
  return (
    `${serverName} cannot start: the secret${one ? '' : 's'} ${secretList(names)} ${one ? 'is' : 'are'} no longer stored in Switchboard. ` +
    `Open Switchboard and enter ${one ? 'it' : 'them'} again on ${serverName}'s page, then try again.`
  );
}

/**
 * The message a gateway client sees for a failure of a call that did not produce a server result. `missingSecrets`
 * are the secrets the launch gate says are gone, when a launch was refused for that reason.
 */
export function failureMessage(outcome: CallOutcome, serverName: string, missingSecrets: readonly string[] = []): string {
  const code = outcome.error?.code;
  if (code === 'authorization_required' || code === 'auth_required')
    return `${serverName} needs you to sign in. Open Switchboard and sign in to ${serverName}, then try again.`;
  if (code === 'approval_required' || code === 'secret_missing') {
    if (missingSecrets.length > 0) return missingSecretsMessage(serverName, missingSecrets);
    return `${serverName} is waiting for its launch to be approved. Open Switchboard and approve it, then try again.`;
  }
  return outcome.error?.message ?? 'The call failed.';
}

/** The result for a finished call. `raw` is the audited result when one was kept. */
export function toCallToolResult(
  outcome: CallOutcome,
  raw: unknown,
  opts: { serverName: string; outputSchema: boolean; structuredBudget: number; missingSecrets?: readonly string[]; inHistory?: boolean },
): CallToolResult {
  const p = outcome.presentation;
  const serverResult = isObject(raw) && Array.isArray(raw.content);
  if (outcome.status !== 'ok' && !(outcome.status === 'error' && outcome.error?.code === 'tool_error' && serverResult)) {
    return toolError(failureMessage(outcome, opts.serverName, opts.missingSecrets));
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
    if (size > opts.structuredBudget)
      notices.push(
        `Structured content (${size} bytes) is over the ${opts.structuredBudget}-byte budget and was left out` +
          (opts.inHistory === false ? '.' : "; it is in Switchboard's call history."),
      );
    else {
      try {
        structured = sanitizeJson(rawStructured) as JsonObject;
      } catch {
        notices.push(`Structured content is nested deeper than ${STRUCTURED_DEPTH} levels and was left out.`);
      }
    }
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
