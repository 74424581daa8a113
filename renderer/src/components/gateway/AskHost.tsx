// The ask-policy dialog: a gateway client wants to call a tool the person has not allowed for it, and its profile
// says to ask. Shows the client, the tool, the server's hints (never trusted: a server can call anything read-only)
// and the arguments (as text); Allow runs the call, "Trust this tool" also remembers the tool for this client as it
// is defined now, Deny refuses it. The wait ends on its own at the call's deadline. Mounted once for the whole app.
// Long arguments arrive shortened; what follows the cut (a payload after padding) would otherwise be approved unseen,
// so the cut is marked with how much is hidden and Allow waits until the person opened the whole text (the core
// refuses it before that too).
import { Alert, Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { AppError } from '../../../../shared/errors';
import { formatSize } from '../../../../shared/format-size';
import { useStore } from '../../store';
import { selectAskCount, selectCurrentAsk } from '../../store/gateway-slice';
import { AppDialog } from '../../ui/AppDialog';
import { countLabel } from '../../ui/count';
import { secondsLeft, shortenedLabel } from './format';
import './gateway.css';

/** Seconds left, ticking once a second. */
function useCountdown(until: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === undefined) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [until]);
  return until === undefined ? 0 : secondsLeft(until, now);
}

function formatLeft(s: number): string {
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}

/** Shows the oldest call waiting for a decision. */
export function AskHost() {
  const ask = useStore(selectCurrentAsk);
  const count = useStore(selectAskCount);
  const decide = useStore((s) => s.decideGateway);
  const openArguments = useStore((s) => s.openGatewayArguments);
  const left = useCountdown(ask?.expiresAt);
  const [full, setFull] = useState<{ requestId: string; text: string } | null>(null);
  const [opening, setOpening] = useState(false);
  const [openError, setOpenError] = useState<string | null>(null);
  const argsRef = useRef<HTMLPreElement>(null);
  const requestId = ask?.requestId;
  useEffect(() => {
    setOpening(false);
    setOpenError(null);
  }, [requestId]);
  if (!ask) return null;
  const others = count - 1;
  const whole = full?.requestId === ask.requestId ? full.text : null;
  const mustOpen = ask.argumentsTruncated && whole === null;
  const openWhole = async (): Promise<void> => {
    const id = ask.requestId;
    setOpening(true);
    setOpenError(null);
    try {
      const r = await openArguments(id);
      setFull({ requestId: id, text: r.text });
      // The button that had focus is gone: the person continues in the text they opened.
      requestAnimationFrame(() => argsRef.current?.focus());
    } catch (err) {
      setOpenError(err instanceof AppError ? err.message : 'The whole arguments could not be opened');
    } finally {
      setOpening(false);
    }
  };
  const needsOpen = mustOpen ? 'Open the whole arguments first: they were shortened' : undefined;
  return (
    <AppDialog
      opened
      onClose={() => void decide(ask.requestId, false)}
      dismissable={false}
      title={`Allow a call from ${ask.clientName}?`}
      describedBy="ask-summary"
      actions={
        <>
          <Button variant="default" onClick={() => void decide(ask.requestId, false)}>
            Deny
          </Button>
          <Button variant="light" onClick={() => void decide(ask.requestId, true, true)} disabled={mustOpen} title={needsOpen}>
            Trust this tool for {ask.clientName}
          </Button>
          <Button
            variant="filled"
            onClick={() => void decide(ask.requestId, true)}
            disabled={mustOpen}
            title={needsOpen}
            data-autofocus={!mustOpen || undefined}
          >
            Allow
          </Button>
        </>
      }
    >
      <Stack gap="sm" className="sb-gw">
        <Text id="ask-summary">
          <Text span fw={600}>
            {ask.clientName}
          </Text>{' '}
          wants to call <Code>{ask.tool}</Code>
          {ask.toolTitle ? ` (${ask.toolTitle})` : ''} on{' '}
          <Text span fw={600}>
            {ask.serverName}
          </Text>
          .
        </Text>
        {(ask.hints.readOnly === true || ask.hints.destructive === true || ask.hints.openWorld === true) && (
          <Group gap="xs">
            {ask.hints.readOnly === true && (
              <Badge color="gray" variant="light">
                The server says it is read-only (not verified)
              </Badge>
            )}
            {ask.hints.destructive === true && (
              <Badge color="red" variant="light">
                The server says it may destroy data
              </Badge>
            )}
            {ask.hints.openWorld === true && (
              <Badge color="yellow" variant="light">
                The server says it reaches outside (network, …)
              </Badge>
            )}
          </Group>
        )}
        <Stack gap={4}>
          <Text fw={600} size="sm">
            Arguments ({formatSize(ask.argumentsBytes)})
          </Text>
          {ask.argumentsTruncated && (
            <Alert color={whole === null ? 'orange' : 'green'} variant="light" p="xs" data-testid="ask-shortened">
              <Stack gap={6}>
                <Text size="sm" fw={600}>
                  {whole === null
                    ? `Shortened: ${shortenedLabel(ask)}.`
                    : `Showing all ${ask.argumentsChars.toLocaleString('en-US')} characters.`}
                </Text>
                {whole === null && (
                  <>
                    <Text size="sm">
                      Anything may be in the hidden part. Open the whole arguments to read them before you allow the call.
                    </Text>
                    <Group>
                      <Button size="xs" variant="filled" color="orange" loading={opening} onClick={() => void openWhole()} data-autofocus>
                        Open full arguments
                      </Button>
                    </Group>
                  </>
                )}
                {openError !== null && (
                  <Text size="sm" c="red" role="alert">
                    {openError}
                  </Text>
                )}
              </Stack>
            </Alert>
          )}
          {/* Long arguments scroll: focusable, so the keyboard can scroll them too. */}
          <Code
            block
            ref={argsRef}
            tabIndex={0}
            className={whole === null ? 'sb-gw-args' : 'sb-gw-args sb-gw-args-whole'}
            aria-label={whole === null && ask.argumentsTruncated ? 'Arguments (shortened)' : 'Arguments'}
          >
            {whole ?? ask.arguments}
          </Code>
        </Stack>
        <Text size="sm" c="dimmed" role="timer" aria-live="off">
          “Trust this tool” lets {ask.clientName} call this tool without asking until the tool’s definition changes. Refused on its own in{' '}
          {formatLeft(left)} (the call’s deadline).
          {others > 0 ? ` ${countLabel(others, 'more call')} waiting after this one.` : ''}
        </Text>
      </Stack>
    </AppDialog>
  );
}
