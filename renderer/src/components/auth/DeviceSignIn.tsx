// Device sign-in (RFC 8628) in the sign-in tab: start it, then the code in large type (copyable), the page to enter it
// on (copyable; opened through the core's safe opener only when asked), a countdown to expiry, and cancel.
import { Alert, Button, Code, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import { IconCopy, IconDeviceMobile, IconExternalLink } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { AuthStatus } from '../../../../shared/domains/auth';
import { escapeUnsafe } from '../../../../shared/domains/catalog-text';
import { useStore } from '../../store';

function remaining(expiresAt: number, now: number): string {
  const secs = Math.max(0, Math.round((expiresAt - now) / 1000));
  return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
}

/** The device sign-in panel of one server. */
export function DeviceSignIn({ serverId, status }: { serverId: string; status: AuthStatus }) {
  const deviceStart = useStore((s) => s.deviceStart);
  const deviceCancel = useStore((s) => s.deviceCancel);
  const deviceOpen = useStore((s) => s.deviceOpen);
  const [now, setNow] = useState(() => Date.now());
  const [busy, setBusy] = useState(false);
  const device = status.device;
  useEffect(() => {
    if (!device) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [device]);
  const act = async (fn: () => Promise<void>) => {
    setBusy(true);
    try {
      await fn();
    } finally {
      setBusy(false);
    }
  };
  if (!device) {
    return (
      <Group gap="sm">
        <Button
          leftSection={<IconDeviceMobile size={16} aria-hidden />}
          loading={busy}
          disabled={status.bearerSet === true || status.state === 'in-progress'}
          onClick={() => void act(() => deviceStart(serverId))}
        >
          Get a code to enter on another device
        </Button>
        <Text fz="xs" c="dimmed">
          For machines without a browser, or over SSH.
        </Text>
      </Group>
    );
  }
  const page = device.verificationUriComplete ?? device.verificationUri;
  return (
    <section aria-label="Device sign-in">
      <Alert color="blue" variant="light" role="none" title="Sign in on another device">
        <Stack gap="sm">
          <Text fz="sm">On any device with a browser, open the page below and enter this code:</Text>
          <Group gap="sm" align="center">
            <Title order={2} ff="monospace" fz={32} lts={2} data-testid="device-user-code">
              {escapeUnsafe(device.userCode)}
            </Title>
            <CopyButton value={device.userCode}>
              {({ copied, copy }) => (
                <Button size="xs" leftSection={<IconCopy size={14} aria-hidden />} onClick={copy}>
                  {copied ? 'Copied' : 'Copy code'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Group gap="sm" wrap="wrap">
            <Code data-testid="device-page" style={{ overflowWrap: 'anywhere' }}>
              {escapeUnsafe(device.verificationUri)}
            </Code>
            <CopyButton value={page}>
              {({ copied, copy }) => (
                <Button size="xs" leftSection={<IconCopy size={14} aria-hidden />} onClick={copy}>
                  {copied ? 'Copied' : 'Copy address'}
                </Button>
              )}
            </CopyButton>
            <Button size="xs" leftSection={<IconExternalLink size={14} aria-hidden />} onClick={() => void act(() => deviceOpen(serverId))}>
              Open the page
            </Button>
          </Group>
          <Group justify="space-between">
            <Text fz="sm" c="dimmed">
              Waiting for the code… expires in {remaining(device.expiresAt, now)} · checking every {device.intervalSecs} s
            </Text>
            <Button size="xs" color="red" onClick={() => void act(() => deviceCancel(serverId))}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </Alert>
    </section>
  );
}
