// Prompts of a server: pick one, fill its arguments (with completion suggestions), run it, read the returned
// messages by role and copy them as text.
import { Alert, Badge, Box, Button, CopyButton, Group, Image, Paper, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconCheck, IconCopy, IconPlayerPlay } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { PromptItem, PromptMessageView } from '../../../shared/domains/resources';
import { AppError } from '../../../shared/errors';
import { useStore } from '../store';
import { CodeBlock } from '../ui/CodeBlock';
import { countLabel } from '../ui/count';
import { cleanText, oneLine } from '../ui/text';
import { CompletionInput } from './CompletionInput';
import { api } from '../bridge';

function asText(messages: PromptMessageView[]): string {
  return messages
    .map((m) => {
      const body =
        m.text ??
        (m.resource
          ? `[resource ${m.resource.uri}]${m.resource.text ? `\n${m.resource.text}` : ''}`
          : m.image
            ? `[image ${m.image.mimeType}]`
            : (m.notice ?? ''));
      return `${m.role}: ${body}`;
    })
    .join('\n\n');
}

function Message({ m }: { m: PromptMessageView }) {
  return (
    <Paper component="article" withBorder p="sm" aria-label={`${m.role} message`}>
      <Badge size="sm" variant="light" color={m.role === 'user' ? 'blue' : 'grape'} radius="sm" tt="none" mb="xs">
        {m.role}
      </Badge>
      {m.text !== undefined && <CodeBlock>{m.text}</CodeBlock>}
      {m.image && <Image alt="Prompt image" src={`data:${m.image.mimeType};base64,${m.image.data}`} maw="100%" w="auto" fit="contain" />}
      {m.resource && (
        <Box>
          <Text size="xs" c="dimmed" className="sb-mono">
            {m.resource.link ? 'Resource link (not fetched): ' : 'Embedded resource: '}
            {cleanText(m.resource.uri)}
          </Text>
          {m.resource.text !== undefined && <CodeBlock mt={4}>{m.resource.text}</CodeBlock>}
        </Box>
      )}
      {m.notice && (
        <Text size="sm" c="dimmed">
          {cleanText(m.notice)}
        </Text>
      )}
    </Paper>
  );
}

/** Prompts of one server. */
export function PromptsTab(props: { serverId: string }) {
  const id = props.serverId;
  const [prompts, setPrompts] = useState<PromptItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<PromptItem | undefined>();
  const [args, setArgs] = useState<Record<string, string>>({});
  const [result, setResult] = useState<{ description?: string; messages: PromptMessageView[] } | undefined>();
  const [running, setRunning] = useState(false);
  const version = useStore((s) => s.promptListVersion[id] ?? 0);

  useEffect(() => {
    api['prompts.list']({ id })
      .then((r) => {
        setPrompts(r.prompts);
        setError(null);
      })
      .catch((err: unknown) => (setPrompts([]), setError(err instanceof AppError ? err.message : 'Could not list prompts')));
  }, [id, version]);

  const run = async () => {
    if (!chosen) return;
    setError(null);
    setRunning(true);
    const filled = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== ''));
    try {
      setResult(await api['prompts.get']({ id, name: chosen.name, arguments: filled }));
    } catch (err) {
      setResult(undefined);
      setError(err instanceof AppError ? err.message : 'The prompt failed');
    } finally {
      setRunning(false);
    }
  };

  const list = prompts ?? [];
  return (
    <Group align="flex-start" gap="md" wrap="nowrap" role="region" aria-label="Prompts">
      <Stack gap="xs" style={{ flex: '0 0 clamp(200px, 30%, 320px)', minWidth: 0 }}>
        <Title order={2} size="h4">
          Prompts
        </Title>
        <Text size="xs" c="dimmed">
          {prompts === null ? 'Loading…' : countLabel(list.length, 'prompt', 'prompts', 'No prompts listed')}
        </Text>
        <Stack gap={2} component="ul" aria-label="Prompt list" m={0} p={0} style={{ listStyle: 'none' }}>
          {list.map((p) => (
            <li key={p.name}>
              <UnstyledButton
                className="sb-row"
                data-active={chosen?.name === p.name || undefined}
                aria-pressed={chosen?.name === p.name}
                onClick={() => {
                  setChosen(p);
                  setArgs({});
                  setResult(undefined);
                }}
              >
                <Text component="span" size="sm" fw={500} display="block">
                  {oneLine(p.title ?? p.name)}
                </Text>
                {p.description && (
                  <Text component="span" size="xs" c="dimmed" display="block" lineClamp={2}>
                    {oneLine(p.description)}
                  </Text>
                )}
              </UnstyledButton>
            </li>
          ))}
        </Stack>
      </Stack>
      <Stack gap="md" style={{ flex: 1, minWidth: 0 }}>
        {error && (
          <Alert color="red" variant="light" p="sm" role="alert">
            {cleanText(error)}
          </Alert>
        )}
        {!chosen && list.length > 0 && (
          <Text size="sm" c="dimmed">
            Pick a prompt to fill its arguments and run it.
          </Text>
        )}
        {chosen && (
          <Paper
            component="form"
            withBorder
            p="md"
            aria-label={`Prompt ${chosen.name}`}
            onSubmit={(e) => {
              e.preventDefault();
              void run();
            }}
          >
            <Stack gap="sm">
              <Box>
                <Title order={2} size="h4">
                  {oneLine(chosen.title ?? chosen.name)}
                </Title>
                <Text size="xs" c="dimmed" className="sb-mono">
                  {chosen.name}
                </Text>
              </Box>
              {chosen.description && <Text size="sm">{cleanText(chosen.description)}</Text>}
              {chosen.arguments.map((a) => (
                <CompletionInput
                  key={a.name}
                  serverId={id}
                  completionRef={{ type: 'ref/prompt', name: chosen.name }}
                  name={a.name}
                  label={a.name}
                  required={a.required}
                  {...(a.description !== undefined ? { description: a.description } : {})}
                  value={args[a.name] ?? ''}
                  context={args}
                  onChange={(v) => setArgs({ ...args, [a.name]: v })}
                />
              ))}
              <Group>
                <Button type="submit" variant="filled" loading={running} leftSection={<IconPlayerPlay size={16} aria-hidden />}>
                  Run prompt
                </Button>
              </Group>
            </Stack>
          </Paper>
        )}
        {result && (
          <Stack gap="sm" role="region" aria-label="Prompt messages">
            <Group justify="space-between">
              <Title order={3} size="h5">
                {countLabel(result.messages.length, 'message', 'messages')}
              </Title>
              <CopyButton value={asText(result.messages)}>
                {({ copied, copy }) => (
                  <Button
                    size="xs"
                    leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
                    onClick={copy}
                  >
                    {copied ? 'Copied' : 'Copy as text'}
                  </Button>
                )}
              </CopyButton>
            </Group>
            {result.description && <Text size="sm">{cleanText(result.description)}</Text>}
            {result.messages.map((m, i) => (
              <Message key={i} m={m} />
            ))}
          </Stack>
        )}
      </Stack>
    </Group>
  );
}
