// Sampling answered by hand: a server asks for a model reply; the dialog shows what it sent (messages, system
// prompt, model preferences, max tokens, tools) and the person writes the reply, or declines. One at a time.
import { Alert, Badge, Button, Group, Paper, Select, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useId, useState } from 'react';
import type { SamplingReply, SamplingRequestView } from '../../../../shared/domains/protocol';
import { useStore } from '../../store';
import { selectCurrentSampling } from '../../store/protocol-slice';
import { AppDialog } from '../../ui/AppDialog';
import { useAction } from '../../ui/use-action';
import { countLabel } from '../../ui/count';

const STOP_REASONS: { value: NonNullable<SamplingReply['stopReason']>; label: string }[] = [
  { value: 'endTurn', label: 'End of turn (endTurn)' },
  { value: 'maxTokens', label: 'Reached max tokens (maxTokens)' },
  { value: 'stopSequence', label: 'Hit a stop sequence (stopSequence)' },
];

function Preferences({ request }: { request: SamplingRequestView }) {
  const p = request.modelPreferences;
  const rows: [string, string][] = [['Max tokens', String(request.maxTokens)]];
  if (request.temperature !== undefined) rows.push(['Temperature', String(request.temperature)]);
  if (p?.hints.length) rows.push(['Model hints', p.hints.join(', ')]);
  if (p?.intelligencePriority !== undefined) rows.push(['Intelligence priority', p.intelligencePriority.toFixed(2)]);
  if (p?.speedPriority !== undefined) rows.push(['Speed priority', p.speedPriority.toFixed(2)]);
  if (p?.costPriority !== undefined) rows.push(['Cost priority', p.costPriority.toFixed(2)]);
  if (request.stopSequences?.length) rows.push(['Stop sequences', request.stopSequences.map((s) => JSON.stringify(s)).join(', ')]);
  if (request.includeContext) rows.push(['Include context', request.includeContext]);
  if (request.toolChoice) rows.push(['Tool choice', request.toolChoice]);
  return (
    <Table withTableBorder variant="vertical" fz="sm" data-testid="sampling-preferences">
      <Table.Tbody>
        {rows.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Th w={180} scope="row">
              {k}
            </Table.Th>
            <Table.Td>{v}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Dialog({ request, count }: { request: SamplingRequestView; count: number }) {
  const respond = useStore((s) => s.respondSampling);
  const [text, setText] = useState('');
  const [model, setModel] = useState('');
  const [stopReason, setStopReason] = useState<NonNullable<SamplingReply['stopReason']>>('endTurn');
  const [error, setError] = useState<string | null>(null);
  const { busy, error: failure, setError: setFailure, run } = useAction();
  const replyId = useId();
  const minutes = Math.max(1, Math.ceil((request.expiresAt - Date.now()) / 60_000));
  // Who gets the reply: the server itself, or one of its apps.
  const asker = request.fromApp ? 'app' : 'server';

  const send = async (action: 'accept' | 'decline') => {
    setFailure(null);
    if (action === 'accept' && text.trim() === '') {
      setError(`Write the reply the ${asker} should get, or decline`);
      document.getElementById(replyId)?.focus();
      return;
    }
    await run(
      () =>
        respond(
          request.requestId,
          action,
          action === 'accept' ? { text, stopReason, ...(model.trim() ? { model: model.trim() } : {}) } : undefined,
        ),
      'The reply could not be sent',
    );
  };

  return (
    <AppDialog
      opened
      size="xl"
      dismissable={false}
      onClose={() => void send('decline')}
      title={request.fromApp ? `An app of ${request.serverName} asks for a model reply` : `${request.serverName} asks for a model reply`}
      describedBy="sampling-intro"
      actions={
        <>
          <Button variant="default" disabled={busy} onClick={() => void send('decline')}>
            Decline
          </Button>
          <Button variant="filled" disabled={busy} loading={busy} onClick={() => void send('accept')}>
            Send reply
          </Button>
        </>
      }
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Text id="sampling-intro" fz="sm">
            {request.fromApp ? 'An app of the server' : 'The server'} <strong>{request.serverName}</strong> wants a language model to
            continue this conversation. Switchboard has no model: you write the reply it will receive. Declining tells the {asker} you
            refused. Expires in about {countLabel(minutes, 'minute')}.
          </Text>
          {count > 1 && (
            <Badge variant="light" aria-label={`${count} requests waiting`}>
              {count} waiting
            </Badge>
          )}
        </Group>
        {request.fromApp && (
          <Alert color="blue" variant="light" title="From an app, not the server" data-testid="sampling-from-app">
            The app shown for the tool <strong>{request.fromApp.tool}</strong> sent this request; the server itself did not ask. Your reply
            goes back to the app.
          </Alert>
        )}
        {request.systemPrompt && (
          <div>
            <Title order={3} fz="sm" mb={4}>
              System prompt
            </Title>
            <Paper withBorder p="xs" data-testid="sampling-system">
              <Text fz="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {request.systemPrompt}
              </Text>
            </Paper>
          </div>
        )}
        <div>
          <Title order={3} fz="sm" mb={4}>
            Messages
          </Title>
          {request.omittedMessages > 0 && (
            <Text fz="xs" className="sb-quiet" mb={4}>
              {countLabel(request.omittedMessages, 'earlier message')} not shown.
            </Text>
          )}
          <Stack gap={6} data-testid="sampling-messages">
            {request.messages.map((m, i) => (
              <Paper key={i} withBorder p="xs" {...(m.role === 'assistant' ? { bg: 'var(--mantine-color-default-hover)' } : {})}>
                <Text fz="xs" fw={600} className="sb-quiet" tt="uppercase" mb={2}>
                  {m.role}
                </Text>
                {m.content.map((c, j) => (
                  <Text
                    key={j}
                    fz="sm"
                    style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                    {...(c.type === 'text' ? {} : { c: 'dimmed' })}
                  >
                    {c.text}
                  </Text>
                ))}
              </Paper>
            ))}
          </Stack>
        </div>
        <Preferences request={request} />
        {request.tools.length > 0 && (
          <div>
            <Title order={3} fz="sm" mb={4}>
              Tools offered to the model ({request.tools.length})
            </Title>
            <Stack gap={2} data-testid="sampling-tools">
              {request.tools.map((t) => (
                <Text key={t.name} fz="sm">
                  <Text span className="sb-mono" fw={600}>
                    {t.name}
                  </Text>
                  {t.description ? ` — ${t.description}` : ''}
                </Text>
              ))}
            </Stack>
            <Text fz="xs" className="sb-quiet" mt={4}>
              You can only reply with text; tool use is not sent.
            </Text>
          </div>
        )}
        <Textarea
          id={replyId}
          label="Your reply"
          description={`Sent to the ${asker} as the model's message.`}
          required
          autosize
          minRows={4}
          maxRows={12}
          value={text}
          error={error}
          onChange={(e) => {
            setText(e.currentTarget.value);
            if (error) setError(null);
          }}
          data-autofocus
        />
        <Group grow align="flex-start">
          <Select
            label="Stop reason"
            data={STOP_REASONS}
            value={stopReason}
            allowDeselect={false}
            onChange={(v) => v && setStopReason(v as typeof stopReason)}
          />
          <TextInput
            label="Model name"
            description={`Reported to the ${asker}.`}
            placeholder="switchboard-by-hand"
            value={model}
            onChange={(e) => setModel(e.currentTarget.value)}
          />
        </Group>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
      </Stack>
    </AppDialog>
  );
}

/** Mount point for the sampling dialog queue. */
export function SamplingHost() {
  const current = useStore(selectCurrentSampling);
  const count = useStore((s) => s.samplingQueue.length);
  if (!current) return null;
  return <Dialog key={current.requestId} request={current} count={count} />;
}
