// Turns a server's sampling/createMessage parameters (untrusted) into the bounded display data of the dialog.
import type { SamplingContentView, SamplingMessageView, SamplingRequestView } from '../../../shared/domains/protocol.js';
import { isObject } from '../json.js';
import { sanitizeText, truncate } from '../text.js';

/** Messages shown per request (the most recent ones). */
export const MAX_SHOWN_MESSAGES = 50;
/** Characters shown per text block. */
const MAX_BLOCK_TEXT = 8000;
/** Characters of the system prompt shown. */
const MAX_SYSTEM = 8000;
/** Tools listed per request. */
const MAX_TOOLS = 64;

const clean = (v: unknown, max: number): string => truncate(sanitizeText(typeof v === 'string' ? v : ''), max);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function approxBytes(base64: unknown): number {
  return typeof base64 === 'string' ? Math.floor((base64.length * 3) / 4) : 0;
}

/** One content block as display text. */
export function contentView(block: unknown): SamplingContentView {
  if (!isObject(block)) return { type: 'unknown', text: '(an unreadable block)' };
  const type = clean(block.type, 40) || 'unknown';
  switch (type) {
    case 'text':
      return { type, text: clean(block.text, MAX_BLOCK_TEXT) };
    case 'image':
    case 'audio':
      return { type, text: `(${type}, ${clean(block.mimeType, 100) || 'unknown type'}, about ${approxBytes(block.data)} bytes)` };
    case 'tool_use':
      return { type, text: `Tool call ${clean(block.name, 200)}: ${clean(safeJson(block.input), 2000)}` };
    case 'tool_result': {
      const inner = Array.isArray(block.content) ? block.content.map((c) => contentView(c).text).join('\n') : '';
      return { type, text: `Tool result for ${clean(block.toolUseId, 200)}: ${truncate(inner, MAX_BLOCK_TEXT)}` };
    }
    default:
      return { type, text: `(a ${type} block)` };
  }
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}

/** The request's display data (without ids and timing). */
export function samplingView(
  params: Record<string, unknown>,
): Omit<SamplingRequestView, 'requestId' | 'serverId' | 'serverName' | 'expiresAt'> {
  const raw = Array.isArray(params.messages) ? params.messages : [];
  const shown = raw.slice(-MAX_SHOWN_MESSAGES);
  const messages: SamplingMessageView[] = shown.map((m) => {
    const msg = isObject(m) ? m : {};
    const blocks = Array.isArray(msg.content) ? msg.content : [msg.content];
    return { role: clean(msg.role, 20) || 'user', content: blocks.slice(0, 50).map(contentView) };
  });
  const prefs = isObject(params.modelPreferences) ? params.modelPreferences : undefined;
  const tools = Array.isArray(params.tools) ? params.tools.slice(0, MAX_TOOLS) : [];
  const toolChoice = isObject(params.toolChoice) ? clean(params.toolChoice.mode, 40) : undefined;
  const view: ReturnType<typeof samplingView> = {
    messages,
    omittedMessages: raw.length - shown.length,
    maxTokens: num(params.maxTokens) ?? 0,
    tools: tools.map((t) => {
      const tool = isObject(t) ? t : {};
      const description = clean(tool.description, 2000);
      return { name: clean(tool.name, 200) || '(unnamed)', ...(description ? { description } : {}) };
    }),
  };
  if (typeof params.systemPrompt === 'string') view.systemPrompt = clean(params.systemPrompt, MAX_SYSTEM);
  const temperature = num(params.temperature);
  if (temperature !== undefined) view.temperature = temperature;
  if (Array.isArray(params.stopSequences)) view.stopSequences = params.stopSequences.slice(0, 20).map((s) => clean(s, 200));
  if (typeof params.includeContext === 'string') view.includeContext = clean(params.includeContext, 40);
  if (toolChoice) view.toolChoice = toolChoice;
  if (prefs) {
    const hints = Array.isArray(prefs.hints)
      ? prefs.hints
          .slice(0, 20)
          .map((h) => (isObject(h) ? clean(h.name, 200) : ''))
          .filter((h) => h !== '')
      : [];
    const p: NonNullable<SamplingRequestView['modelPreferences']> = { hints };
    const cost = num(prefs.costPriority);
    const speed = num(prefs.speedPriority);
    const intelligence = num(prefs.intelligencePriority);
    if (cost !== undefined) p.costPriority = cost;
    if (speed !== undefined) p.speedPriority = speed;
    if (intelligence !== undefined) p.intelligencePriority = intelligence;
    view.modelPreferences = p;
  }
  return view;
}
