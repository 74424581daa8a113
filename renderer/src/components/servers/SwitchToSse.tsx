// A Streamable HTTP server whose URL answered 404 or 405 is often a legacy HTTP+SSE endpoint (the old transport
// answers GET with an event stream and has no POST at that address). Legacy SSE works, so the hint under the
// doctor offers the switch itself: the same URL, headers and sign-in, the transport set to SSE, then connect.
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconArrowsExchange } from '@tabler/icons-react';
import { useState } from 'react';
import type { ServerDetail } from '../../../../shared/contract';
import { AppError } from '../../../../shared/errors';
import { useStore } from '../../store';
import { cleanText } from '../../ui/text';
import { modelFromView, modelToInput } from './server-form-model';

/** HTTP statuses a legacy SSE endpoint gives a Streamable HTTP POST. */
const LEGACY_SSE_STATUSES = new Set([404, 405]);

/** Whether a failed connection looks like Streamable HTTP sent to a legacy SSE endpoint. */
export function looksLikeLegacySse(detail: ServerDetail): boolean {
  const error = detail.status.error;
  return (
    detail.transport === 'http' &&
    error?.code === 'http_error' &&
    error.evidence?.httpStatus !== undefined &&
    LEGACY_SSE_STATUSES.has(error.evidence.httpStatus)
  );
}

/** The one-click switch to the legacy SSE transport. */
export function SwitchToSse({ detail }: { detail: ServerDetail }) {
  const updateServer = useStore((s) => s.updateServer);
  const run = useStore((s) => s.runServerAction);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const status = detail.status.error?.evidence?.httpStatus;
  const switchNow = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      const model = { ...modelFromView(detail.config), type: 'sse' as const };
      await updateServer(detail.id, modelToInput(model, detail.config));
      await run(detail.id, 'connect');
    } catch (err) {
      setError(err instanceof AppError ? err.message : 'The transport could not be changed');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Alert color="blue" variant="light" p="sm" data-testid="switch-to-sse" title="This may be a legacy SSE server">
      <Text size="sm">
        The address answered {status} to a Streamable HTTP request. Servers that use the older HTTP+SSE transport do that; Switchboard can
        connect to it as SSE with the same URL, headers and sign-in.
      </Text>
      <Group mt="xs">
        <Button size="xs" loading={busy} leftSection={<IconArrowsExchange size={14} aria-hidden />} onClick={() => void switchNow()}>
          Switch to SSE and connect
        </Button>
      </Group>
      {error && (
        <Text size="sm" c="red" role="alert" mt="xs">
          {cleanText(error)}
        </Text>
      )}
    </Alert>
  );
}
