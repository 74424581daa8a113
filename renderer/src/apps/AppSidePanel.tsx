// What the app addressed to the model (Switchboard has none): its `ui/message` messages and its latest
// `ui/update-model-context`, shown as text beside the app.
import { Badge, Code, Divider, ScrollArea, Stack, Text } from '@mantine/core';
import { escapeUnsafe, prettyJson } from '../../../shared/domains/catalog-text';
import type { AppEvent } from './AppFrame';

/** Most characters of one content block shown. */
const MAX_BLOCK_TEXT = 8000;

/** One content block as plain text: text as is, anything else described. */
export function blockText(block: unknown): string {
  if (typeof block !== 'object' || block === null) return '(not a content block)';
  const b = block as { type?: unknown; text?: unknown; mimeType?: unknown; uri?: unknown; resource?: { uri?: unknown } };
  if (b.type === 'text' && typeof b.text === 'string')
    return escapeUnsafe(b.text.length > MAX_BLOCK_TEXT ? `${b.text.slice(0, MAX_BLOCK_TEXT)}…` : b.text);
  if (b.type === 'image' || b.type === 'audio')
    return `[${b.type}${typeof b.mimeType === 'string' ? ` ${escapeUnsafe(b.mimeType.slice(0, 100))}` : ''}]`;
  if (b.type === 'resource_link' && typeof b.uri === 'string') return `[link ${escapeUnsafe(b.uri.slice(0, 500))}]`;
  if (b.type === 'resource' && typeof b.resource?.uri === 'string') return `[resource ${escapeUnsafe(b.resource.uri.slice(0, 500))}]`;
  return `[${typeof b.type === 'string' ? escapeUnsafe(b.type.slice(0, 50)) : 'unknown'} block]`;
}

/** Messages kept in the panel. */
export const MAX_MESSAGES = 50;

/** The side panel; renders nothing until the app has said something. */
export function AppSidePanel({ events }: { events: AppEvent[] }) {
  const messages = events.filter((e) => e.kind === 'message').slice(-MAX_MESSAGES);
  const context = [...events].reverse().find((e) => e.kind === 'context');
  if (messages.length === 0 && !context) return null;
  return (
    <Stack gap="xs" p="sm" className="sb-app-side" role="complementary" aria-label="For the model">
      <Text size="xs" className="sb-dim">
        What the app sent for the model. Switchboard has no model, so it is shown here.
      </Text>
      {context && (
        <Stack gap={4} aria-label="Model context" role="group">
          <Text fw={600} size="sm">
            Model context{' '}
            <Badge size="xs" variant="light">
              latest
            </Badge>
          </Text>
          {context.content.map((b, i) => (
            <Text key={i} size="sm" className="sb-prewrap" data-testid="model-context-text">
              {blockText(b)}
            </Text>
          ))}
          {context.kind === 'context' && context.structuredContent && (
            <ScrollArea.Autosize mah={200}>
              <Code block>{prettyJson(context.structuredContent)}</Code>
            </ScrollArea.Autosize>
          )}
        </Stack>
      )}
      {context && messages.length > 0 && <Divider />}
      {messages.length > 0 && (
        <Stack gap={6} aria-label="Messages from the app" role="log">
          <Text fw={600} size="sm">
            Messages
          </Text>
          {messages.map((m, i) => (
            <Stack key={i} gap={0}>
              <Text size="xs" className="sb-dim">
                {new Date(m.at).toLocaleTimeString()}
              </Text>
              {m.content.map((b, j) => (
                <Text key={j} size="sm" className="sb-prewrap" data-testid="app-message-text">
                  {blockText(b)}
                </Text>
              ))}
            </Stack>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
