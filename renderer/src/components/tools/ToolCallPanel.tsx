// The call area of a tool: the generated form with Call, then one result area that on Call scrolls into view
// and takes focus, showing running (progress, Cancel) and then the result. A failed validation clears the old
// result so it cannot be mistaken for the answer to the new arguments.
import { Alert, Box, Button, Group, Loader, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { IconPlayerStop } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { SandboxWarmer } from '../../apps/SandboxWarmer';
import { useStore } from '../../store';
import { cleanText } from '../../ui/text';
import { isCallRunning, selectPanelCall } from '../../store/calls-slice';
import { progressText } from './progress-text';
import { ResultView } from './ResultView';
import { SchemaForm } from './SchemaForm';

/** What the panel needs to know about the tool. */
export interface CallableTool {
  /** Local name `mcp__<server>__<tool>`. */
  name: string;
  /** The tool's inputSchema. */
  inputSchema: unknown;
  /** The tool has an MCP App: its results are shown in it. */
  hasApp?: boolean;
}

const PHASE_WORDS = {
  queued: 'Waiting for the server…',
  input: 'Waiting for your input…',
  task: 'Task running on the server…',
  running: 'Running…',
} as const;

/** Brings the result area into view: its top, or as much of it as fits. */
function reveal(el: HTMLElement | null, focus: boolean): void {
  if (!el) return;
  const tall = el.getBoundingClientRect().height > window.innerHeight - 120;
  el.scrollIntoView({ block: tall ? 'start' : 'nearest' });
  if (focus) el.focus({ preventScroll: true });
}

/** Form, progress and result for one tool. */
export function ToolCallPanel({
  tool,
  initialArgs,
  formKey,
}: {
  tool: CallableTool;
  initialArgs?: Record<string, unknown>;
  formKey?: string | number;
}) {
  const state = useStore(selectPanelCall(tool.name));
  const callTool = useStore((s) => s.callTool);
  const cancelCall = useStore((s) => s.cancelCall);
  const clearOutcome = useStore((s) => s.clearOutcome);
  const prefetchApp = useStore((s) => s.prefetchApp);
  const area = useRef<HTMLElement>(null);
  const [called, setCalled] = useState(0);
  const running = state && isCallRunning(state) ? state : undefined;
  const p = running?.progress;
  const pct = p?.progress !== undefined && p.total ? Math.min(100, Math.round((p.progress / p.total) * 100)) : undefined;
  const phase = p?.phase ?? 'queued';
  const counted = progressText(p?.progress, p?.total);
  const outcome = state?.outcome;

  useEffect(() => {
    if (called > 0) reveal(area.current, true);
  }, [called]);
  useEffect(() => {
    if (called > 0 && (outcome || state?.error)) reveal(area.current, false);
  }, [called, outcome, state?.error]);

  const shown = running !== undefined || outcome !== undefined || state?.error !== undefined;
  return (
    <Stack gap="md" aria-label="Call tool" role="region">
      {tool.hasApp && <SandboxWarmer />}
      <SchemaForm
        key={`${tool.name}:${formKey ?? ''}`}
        inputSchema={tool.inputSchema}
        {...(initialArgs ? { initial: initialArgs } : {})}
        busy={running !== undefined}
        onCall={(args) => {
          setCalled((n) => n + 1);
          // A tool with an app: the core reads the app while the call runs, so it shows as soon as the result is in.
          if (tool.hasApp) prefetchApp(tool.name);
          void callTool(tool.name, args);
        }}
        onInvalid={() => clearOutcome(tool.name)}
      />
      {shown && (
        <Paper
          ref={area}
          component="section"
          withBorder
          p="md"
          tabIndex={-1}
          aria-labelledby={`result-title-${tool.name}`}
          aria-busy={running !== undefined}
          style={{ scrollMarginTop: 72, scrollMarginBottom: 16 }}
          data-testid="call-result-area"
        >
          <Title order={3} size="h5" id={`result-title-${tool.name}`} mb="sm">
            Result
          </Title>
          {running && (
            <Stack gap="xs" role="status" aria-label="Call progress">
              <Group justify="space-between" wrap="nowrap">
                <Group gap="xs" wrap="nowrap">
                  <Loader size="xs" aria-hidden />
                  <Text size="sm">{PHASE_WORDS[phase]}</Text>
                  {counted !== undefined && (
                    <Text
                      size="sm"
                      c="dimmed"
                      data-testid="progress-count"
                      style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
                    >
                      {counted}
                    </Text>
                  )}
                </Group>
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  leftSection={<IconPlayerStop size={14} aria-hidden />}
                  onClick={() => void cancelCall(running.callId)}
                  disabled={running.cancelling}
                >
                  {running.cancelling ? 'Cancelling…' : 'Cancel'}
                </Button>
              </Group>
              <Progress
                value={pct ?? 100}
                animated={pct === undefined}
                striped={pct === undefined}
                aria-label="Progress"
                {...(pct !== undefined ? { 'aria-valuenow': pct } : {})}
              />
              {p?.message && (
                <Text size="sm" c="dimmed" data-testid="progress-message">
                  {cleanText(p.message)}
                </Text>
              )}
              {p?.task && (
                <Text size="sm" c="dimmed" data-testid="task-status">
                  Task {cleanText(p.task.id)}: {cleanText(p.task.status)}
                  {p.task.message ? ` — ${cleanText(p.task.message)}` : ''}
                </Text>
              )}
            </Stack>
          )}
          {!running && state?.error && (
            <Alert color="red" variant="light" role="alert" p="sm">
              {cleanText(state.error)}
            </Alert>
          )}
          {!running && outcome && (
            <Box role="region" aria-label="Call result">
              <ResultView outcome={outcome} cancelledByYou={state?.cancelledByYou === true} hasApp={tool.hasApp === true} />
            </Box>
          )}
        </Paper>
      )}
    </Stack>
  );
}
