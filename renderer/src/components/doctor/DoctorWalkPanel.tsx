// The connection doctor's walk as a step list: each step passed (✓), failed (✗), with a warning (!) or not run (–),
// what it found, and on the failing step what to do next. For a stdio server the walk first shows the exact command
// and runs it once only when the person approves that one test run. Nothing is saved. Self-contained: mount it with
// a way to build the definition (a dialog's form) or a saved server's id.
import { Alert, Badge, Button, Code, Group, List, Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconHandStop, IconMinus, IconPlayerPlay, IconStethoscope, IconX } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import type { ServerConfigInput } from '../../../../shared/config';
import type { DoctorStep, DoctorStepStatus, DoctorWalk } from '../../../../shared/domains/doctor';
import { escapeUnsafe } from '../../../../shared/domains/catalog-text';
import { useStore } from '../../store';
import { selectWalk } from '../../store/doctor-slice';
import './doctor.css';

/** What the walk tests: a definition (possibly unsaved) and/or the saved server it belongs to. */
export interface WalkRequest {
  config?: ServerConfigInput;
  id?: string;
}

const LOOK: Record<DoctorStepStatus, { color: string; icon: typeof IconCheck; word: string }> = {
  passed: { color: 'green', icon: IconCheck, word: 'passed' },
  failed: { color: 'red', icon: IconX, word: 'failed' },
  warning: { color: 'yellow', icon: IconAlertTriangle, word: 'warning' },
  skipped: { color: 'gray', icon: IconMinus, word: 'not run' },
  'needs-approval': { color: 'blue', icon: IconHandStop, word: 'waiting for approval' },
};

function Step({ step }: { step: DoctorStep }) {
  const look = LOOK[step.status];
  const Icon = look.icon;
  return (
    <List.Item
      data-step={step.id}
      data-status={step.status}
      icon={
        <ThemeIcon color={look.color} variant={step.status === 'skipped' ? 'light' : 'filled'} size={22} radius="xl" aria-hidden>
          <Icon size={14} />
        </ThemeIcon>
      }
    >
      <Stack gap={2}>
        <Text fz="sm">
          <strong>{step.title}</strong>{' '}
          <Text span c="dimmed" fz="xs">
            ({look.word}
            {step.elapsedMs !== undefined && step.status !== 'skipped' ? `, ${step.elapsedMs} ms` : ''})
          </Text>
        </Text>
        <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
          {escapeUnsafe(step.summary)}
        </Text>
        {step.evidence.length > 0 && (
          <details open={step.status === 'failed'}>
            <summary>
              <Text span fz="xs" c="dimmed">
                Evidence
              </Text>
            </summary>
            <div className="sb-evidence">
              {step.evidence.map((e, i) => (
                <div key={i} className="sb-evidence-row">
                  <Text span fz="xs" c="dimmed">
                    {escapeUnsafe(e.label)}
                  </Text>
                  <Code block={e.value.includes('\n')} className="sb-evidence-value">
                    {escapeUnsafe(e.value)}
                  </Code>
                </div>
              ))}
            </div>
          </details>
        )}
        {step.advice && step.status !== 'passed' && (
          <Alert color={step.status === 'failed' ? 'red' : 'blue'} variant="light" p="xs" title="What to do next">
            <Text fz="sm">{escapeUnsafe(step.advice)}</Text>
          </Alert>
        )}
      </Stack>
    </List.Item>
  );
}

function Summary({ walk }: { walk: DoctorWalk }) {
  if (walk.trial) return null;
  if (walk.ok)
    return (
      <Badge color="green" variant="light" size="lg" tt="none">
        Every step passed
      </Badge>
    );
  const failed = walk.steps.find((s) => s.id === walk.failedStep);
  return (
    <Badge color="red" variant="light" size="lg" tt="none">
      Failed at: {failed?.title ?? walk.failedStep}
    </Badge>
  );
}

/** The walk: a button, the trial approval for stdio, and the step list. */
export function DoctorWalkPanel({
  walkKey,
  request,
  label = 'Test connection',
}: {
  walkKey: string;
  request: () => WalkRequest | string;
  label?: string;
}) {
  const state = useStore(selectWalk(walkKey));
  const runWalk = useStore((s) => s.runWalk);
  const walk = state?.walk;
  const resultRef = useRef<HTMLDivElement>(null);
  // A finished walk (or the trial to approve) is brought into view: it appears below the form.
  useEffect(() => {
    if (walk !== undefined) resultRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [walk]);
  const start = (approvedLaunch?: string) => {
    const req = request();
    if (typeof req === 'string') return;
    void runWalk(walkKey, { ...req, ...(approvedLaunch !== undefined ? { approvedLaunch } : {}) });
  };
  const problem = (() => {
    const req = request();
    return typeof req === 'string' ? req : null;
  })();
  return (
    <Stack gap="sm" role="region" aria-label="Connection test">
      <Group gap="sm">
        <Button
          leftSection={<IconStethoscope size={16} aria-hidden />}
          onClick={() => start()}
          loading={state?.running === true}
          disabled={problem !== null}
        >
          {label}
        </Button>
        {walk && !state?.running && <Summary walk={walk} />}
        {state?.running && (
          <Group gap={6} aria-live="polite">
            <Loader size="xs" aria-hidden />
            <Text fz="sm" c="dimmed">
              Walking through the connection…
            </Text>
          </Group>
        )}
      </Group>
      {problem && (
        <Text fz="xs" c="dimmed">
          {problem}
        </Text>
      )}
      <Text fz="xs" c="dimmed">
        Runs each step of connecting, in order, and stops at the first that fails. Nothing is saved.
      </Text>
      {state?.error && (
        <Alert color="red" role="alert">
          {escapeUnsafe(state.error)}
        </Alert>
      )}
      <Stack gap="sm" ref={resultRef}>
        {walk?.trial && (
          <Alert color="blue" title="Approve one test run" role="alertdialog" aria-label="Approve one test run">
            <Stack gap="xs">
              <Text fz="sm">
                Testing starts this program once on your computer, checks it, and stops it. It runs only if you approve this exact command.
              </Text>
              <Code block data-testid="trial-command">
                {escapeUnsafe(walk.trial.command)}
              </Code>
              {walk.trial.args.length > 0 && (
                <List type="ordered" size="sm" spacing={2} aria-label="Arguments of the test run">
                  {walk.trial.args.map((a, i) => (
                    <List.Item key={i}>
                      <Code>{escapeUnsafe(a)}</Code>
                    </List.Item>
                  ))}
                </List>
              )}
              {walk.trial.cwd && <Text fz="sm">Working directory: {escapeUnsafe(walk.trial.cwd)}</Text>}
              <Text fz="sm">
                Environment: {walk.trial.envKeys.length > 0 ? walk.trial.envKeys.map(escapeUnsafe).join(', ') : 'only the essentials'}
              </Text>
              <Group>
                <Button
                  variant="filled"
                  leftSection={<IconPlayerPlay size={16} aria-hidden />}
                  onClick={() => start(walk.trial?.fingerprint)}
                  loading={state?.running === true}
                >
                  Run this command once
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}
        {walk && (
          <List spacing="sm" aria-label="Connection steps" className="sb-walk">
            {walk.steps.map((s) => (
              <Step key={s.id} step={s} />
            ))}
          </List>
        )}
      </Stack>
    </Stack>
  );
}
