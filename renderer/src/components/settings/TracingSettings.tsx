// The OTLP tracing setting: an endpoint (http or https, checked by the core, whose typed error is shown under the
// field), an on/off switch, what a trace holds, and plainly what this run does (a saved change applies at once,
// unless the run's --otlp overrides the setting).
import { Alert, Button, Group, Paper, Switch, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { TelemetryState } from '../../../../shared/domains/app';
import { AppError } from '../../../../shared/errors';
import { appService } from '../../services/app';

const HINT = 'light-dark(var(--mantine-color-gray-7), var(--mantine-color-dark-1))';

/** What this run does, in one sentence. */
function runningNow(state: TelemetryState): string {
  if (state.overridden)
    return 'This run sends traces to the endpoint given with --otlp on the command line; the saved setting applies when started without it.';
  if (state.restartNeeded) return 'Saved. It applies at the next start of Switchboard.';
  return state.active ? 'Traces are being sent in this run.' : 'Traces are off in this run.';
}

/** The Tracing section of Settings. */
export function TracingSettings() {
  const [state, setState] = useState<TelemetryState | undefined>();
  const [endpoint, setEndpoint] = useState('');
  const [enabled, setEnabled] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);

  const show = (s: TelemetryState): void => {
    setState(s);
    setEndpoint(s.endpoint ?? '');
    setEnabled(s.enabled);
  };

  useEffect(() => {
    appService
      .telemetry()
      .then(show)
      .catch((err: unknown) => setLoadError(err instanceof AppError ? err.message : 'The tracing setting could not be read'));
  }, []);

  const save = async (): Promise<void> => {
    setSaving(true);
    setError(undefined);
    try {
      show(await appService.setTelemetry(endpoint.trim() === '' ? null : endpoint, enabled));
    } catch (err) {
      setError(err instanceof AppError ? err.message : 'The tracing setting could not be saved');
    } finally {
      setSaving(false);
    }
  };

  const changed = state !== undefined && ((state.endpoint ?? '') !== endpoint.trim() || state.enabled !== enabled);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="tracing-heading" data-testid="tracing-settings">
      <Title order={2} size="h4" id="tracing-heading" mb="sm">
        Tracing (OpenTelemetry)
      </Title>
      <Text size="sm" mb="sm">
        Sends a trace of each connect, tool call, resource read and gateway request to an OTLP/HTTP collector. Traces hold span names and
        MCP attributes (server id, method, tool name, status, sizes, durations), never tool arguments, results or secrets.
      </Text>
      {loadError ? (
        <Alert color="red" title="Tracing setting unavailable" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
          {loadError}
        </Alert>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <TextInput
            label="OTLP/HTTP endpoint"
            description="http or https, e.g. http://127.0.0.1:4318 (traces go to /v1/traces)"
            placeholder="http://127.0.0.1:4318"
            value={endpoint}
            onChange={(e) => {
              setEndpoint(e.currentTarget.value);
              setError(undefined);
            }}
            error={error}
            maxLength={2048}
            spellCheck={false}
            autoComplete="off"
            disabled={state === undefined}
            styles={{ description: { color: HINT } }}
          />
          <Group mt="sm" justify="space-between" wrap="wrap" gap="sm">
            <Switch
              label="Send traces"
              checked={enabled}
              onChange={(e) => {
                setEnabled(e.currentTarget.checked);
                setError(undefined);
              }}
              disabled={state === undefined}
            />
            <Button type="submit" variant="filled" loading={saving} disabled={!changed}>
              Save tracing
            </Button>
          </Group>
          {state && (
            <Text size="sm" c={HINT} mt="sm" role="status" data-testid="tracing-status">
              {runningNow(state)}
            </Text>
          )}
        </form>
      )}
    </Paper>
  );
}
