// Shows a call's bounded presentation: text, structured data, checked media, links, embedded resources, notices;
// errors look like errors (a cancel the person asked for says so); the full envelope is fetched only on demand.
import { Alert, Badge, Box, Button, CopyButton, Group, Image, List, Stack, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCheck,
  IconCircleCheck,
  IconCopy,
  IconCircleX,
  IconClockExclamation,
  IconDownload,
  IconFileCode,
  IconPlayerStop,
} from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import type { CallOutcome, CallStatus, Presentation } from '../../../../shared/domains/calls';
import { AppError } from '../../../../shared/errors';
import { AppView } from '../../apps/AppView';
import { saveFile } from '../../lib/save-file';
import { outcomeLabel } from '../../store/calls-slice';
import { CodeBlock } from '../../ui/CodeBlock';
import { cleanText, durationLabel, sizeLabel } from '../../ui/text';
import { useStore } from '../../store';

const FULL_VIEW_CHARS = 1024 * 1024;

const STATUS_LOOK: Record<CallStatus, { color: string; icon: ReactNode }> = {
  ok: { color: 'green', icon: <IconCircleCheck size={14} aria-hidden /> },
  error: { color: 'red', icon: <IconCircleX size={14} aria-hidden /> },
  cancelled: { color: 'gray', icon: <IconPlayerStop size={14} aria-hidden /> },
  timeout: { color: 'orange', icon: <IconClockExclamation size={14} aria-hidden /> },
};

/** A call status as a coloured badge with an icon and words. */
export function CallStatusBadge({ status, cancelledByYou, testId }: { status: CallStatus; cancelledByYou?: boolean; testId?: string }) {
  const look = STATUS_LOOK[status];
  return (
    <Badge
      color={look.color}
      variant="light"
      radius="sm"
      tt="none"
      size="md"
      leftSection={look.icon}
      {...(testId ? { 'data-testid': testId } : {})}
    >
      {outcomeLabel(status, cancelledByYou)}
    </Badge>
  );
}

/** The presentation body (also used by the history view). */
export function PresentationView({ p, status = 'ok' }: { p: Presentation; status?: CallStatus }) {
  const empty =
    !p.text &&
    p.structured === undefined &&
    p.media.length === 0 &&
    p.links.length === 0 &&
    p.resources.length === 0 &&
    p.notices.length === 0;
  return (
    <Stack gap="sm" data-testid="presentation">
      {p.isError && status === 'error' && (
        <Text c="red" fw={600} size="sm">
          The tool reported an error
        </Text>
      )}
      {p.text && (
        <Box>
          <CodeBlock data-testid="result-text">{p.text}</CodeBlock>
          {p.truncated && (
            <Text size="xs" c="dimmed" mt={4}>
              Shortened for display; open the full result to see everything.
            </Text>
          )}
        </Box>
      )}
      {p.structured !== undefined && (
        <Box>
          <Text size="xs" fw={600} c="dimmed" mb={4}>
            Structured content{p.structuredTruncated ? ' (shortened)' : ''}
          </Text>
          <CodeBlock data-testid="result-structured">{p.structured}</CodeBlock>
        </Box>
      )}
      {p.media.map((m, i) =>
        m.data === '' ? (
          <Text key={i} size="sm" c="dimmed">
            {m.kind} ({m.mimeType}, {sizeLabel(m.bytes)}) not kept in the history
          </Text>
        ) : m.kind === 'image' ? (
          <Image
            key={i}
            alt={`Image ${i + 1} from the tool`}
            src={`data:${m.mimeType};base64,${m.data}`}
            maw="100%"
            w="auto"
            fit="contain"
            radius="sm"
            style={{ alignSelf: 'flex-start' }}
          />
        ) : (
          <audio key={i} controls aria-label={`Audio ${i + 1} from the tool`} src={`data:${m.mimeType};base64,${m.data}`} />
        ),
      )}
      {p.links.length > 0 && (
        <Box>
          <Text size="xs" fw={600} c="dimmed" mb={4}>
            Resource links (not fetched)
          </Text>
          <List size="sm" aria-label="Resource links" spacing={2}>
            {p.links.map((l, i) => (
              <List.Item key={i}>
                <Text span className="sb-mono" size="sm">
                  {cleanText(l.uri)}
                </Text>
                {l.name ? ` — ${cleanText(l.name)}` : ''}
                {l.mimeType ? ` (${cleanText(l.mimeType)})` : ''}
              </List.Item>
            ))}
          </List>
        </Box>
      )}
      {p.resources.length > 0 && (
        <Box>
          <Text size="xs" fw={600} c="dimmed" mb={4}>
            Embedded resources
          </Text>
          <Stack gap="xs" aria-label="Embedded resources">
            {p.resources.map((r, i) => (
              <Box key={i}>
                <Text size="sm" className="sb-mono">
                  {cleanText(r.uri)}
                  {r.mimeType ? ` (${cleanText(r.mimeType)})` : ''}
                </Text>
                {r.text !== undefined && <CodeBlock mt={4}>{r.text}</CodeBlock>}
              </Box>
            ))}
          </Stack>
        </Box>
      )}
      {p.notices.length > 0 && (
        <List size="sm" c="dimmed" aria-label="Result notices" icon={<IconAlertTriangle size={14} aria-hidden />}>
          {p.notices.map((n, i) => (
            <List.Item key={i}>{cleanText(n)}</List.Item>
          ))}
        </List>
      )}
      {empty && status === 'ok' && (
        <Text size="sm" c="dimmed">
          The tool returned no content.
        </Text>
      )}
    </Stack>
  );
}

/** A finished call: status, error, its MCP App when the tool has one, presentation and the full result on demand. */
export function ResultView({
  outcome,
  cancelledByYou = false,
  hasApp = false,
}: {
  outcome: CallOutcome;
  cancelledByYou?: boolean;
  hasApp?: boolean;
}) {
  const [full, setFull] = useState<string | null>(null);
  const [fullError, setFullError] = useState<string | null>(null);
  const [signIn, setSignIn] = useState<string | null>(null);
  const fetchCallResult = useStore((s) => s.fetchCallResult);
  const signInForCall = useStore((s) => s.signInForCall);

  const openFull = async (save: boolean): Promise<void> => {
    try {
      const env = await fetchCallResult(outcome.callId);
      const text = JSON.stringify(env, null, 2);
      if (save) saveFile(`tool-result-${outcome.callId}.json`, text);
      else
        setFull(
          text.length > FULL_VIEW_CHARS
            ? `${text.slice(0, FULL_VIEW_CHARS)}\n… (${text.length} characters; save the file to see everything)`
            : text,
        );
    } catch (err) {
      setFullError(err instanceof AppError ? err.message : 'The full result could not be loaded');
    }
  };

  const startSignIn = async (): Promise<void> => {
    if (!outcome.serverId) return;
    try {
      const status = await signInForCall(outcome.serverId);
      setSignIn(status.flow?.authorizationUrl ? 'Sign-in started: finish it in your browser, then call again.' : 'Sign-in started.');
    } catch (err) {
      setSignIn(err instanceof AppError ? err.message : 'Sign-in could not start');
    }
  };

  const showError = outcome.error && outcome.status !== 'ok' && !(outcome.status === 'cancelled' && cancelledByYou);
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <CallStatusBadge status={outcome.status} cancelledByYou={cancelledByYou} testId="call-status" />
        <Text size="sm" c="dimmed">
          in {durationLabel(outcome.durationMs)}
        </Text>
        {outcome.resultBytes !== undefined && (
          <Text size="sm" c="dimmed">
            · {sizeLabel(outcome.resultBytes)} received
          </Text>
        )}
      </Group>
      {outcome.status === 'cancelled' && cancelledByYou && (
        <Text size="sm" c="dimmed">
          You cancelled this call; the server was told to stop.
        </Text>
      )}
      {showError && outcome.error && (
        <Alert color={outcome.status === 'timeout' ? 'orange' : 'red'} variant="light" p="sm" role="alert">
          {cleanText(outcome.error.message)}
        </Alert>
      )}
      {outcome.error?.code === 'authorization_required' && (
        <Group gap="sm">
          <Button variant="filled" onClick={() => void startSignIn()}>
            Sign in
          </Button>
          {signIn && (
            <Text size="sm" c="dimmed">
              {signIn}
            </Text>
          )}
        </Group>
      )}
      {hasApp && <AppView key={outcome.callId} callId={outcome.callId} />}
      {!(outcome.status === 'cancelled' && cancelledByYou) && <PresentationView p={outcome.presentation} status={outcome.status} />}
      <Group gap="xs">
        {outcome.presentation.text && (
          // The text as shown (control and bidi characters cleaned), so what lands on the clipboard is what was read.
          <CopyButton value={cleanText(outcome.presentation.text)}>
            {({ copied, copy }) => (
              <Button
                size="xs"
                variant="default"
                leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
                onClick={copy}
              >
                {copied ? 'Copied' : 'Copy text'}
              </Button>
            )}
          </CopyButton>
        )}
        <Button size="xs" leftSection={<IconFileCode size={14} aria-hidden />} onClick={() => void openFull(false)}>
          Open full result
        </Button>
        <Button size="xs" leftSection={<IconDownload size={14} aria-hidden />} onClick={() => void openFull(true)}>
          Save full result
        </Button>
        {full !== null && (
          <Button size="xs" variant="subtle" onClick={() => setFull(null)}>
            Hide full result
          </Button>
        )}
      </Group>
      {fullError && (
        <Text c="red" size="sm">
          {fullError}
        </Text>
      )}
      {full !== null && (
        <CodeBlock maxHeight={480} data-testid="full-result" aria-label="Full result">
          {full}
        </CodeBlock>
      )}
    </Stack>
  );
}
