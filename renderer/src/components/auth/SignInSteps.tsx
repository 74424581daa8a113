// The OAuth flow's steps as a list: done, in progress, failed (with the reason) or not started. A device sign-in
// shows "Code entered" where the browser step would be.
import { List, Text, ThemeIcon } from '@mantine/core';
import { IconArrowRight, IconCheck, IconPoint, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { AuthStatus, AuthStep } from '../../../../shared/domains/auth';
import { cleanText } from '../../ui/text';

const STEPS: { step: AuthStep; label: string }[] = [
  { step: 'discovery', label: 'Discovery' },
  { step: 'registration', label: 'Registration' },
  { step: 'browser', label: 'Browser' },
  { step: 'token', label: 'Token' },
];
/** The same steps for a device sign-in: the code is entered on another device instead of this browser. */
const DEVICE_STEPS = STEPS.map((s) => (s.step === 'browser' ? { step: 'device' as AuthStep, label: 'Code entered' } : s));

type StepState = 'done' | 'current' | 'failed' | 'pending';

const STEP_ICON: Record<StepState, { icon: ReactNode; color: string; words: string }> = {
  done: { icon: <IconCheck size={14} aria-hidden />, color: 'green', words: 'done' },
  current: { icon: <IconArrowRight size={14} aria-hidden />, color: 'blue', words: 'in progress' },
  failed: { icon: <IconX size={14} aria-hidden />, color: 'red', words: 'failed' },
  pending: { icon: <IconPoint size={14} aria-hidden />, color: 'gray', words: 'not started' },
};

/** The steps of the running (or last) sign-in flow; nothing when there is none. */
export function SignInSteps({ status }: { status: AuthStatus }) {
  const flow = status.flow;
  if (!flow) return null;
  const steps = flow.step === 'device' || flow.failed?.step === 'device' ? DEVICE_STEPS : STEPS;
  const current = steps.findIndex((s) => s.step === flow.step);
  return (
    <List aria-label="Sign-in steps" spacing={4} size="sm" center>
      {steps.map((s, i) => {
        const failed = flow.failed?.step === s.step;
        const state: StepState = failed
          ? 'failed'
          : i < current || (i === current && !flow.failed && status.state !== 'in-progress')
            ? 'done'
            : i === current
              ? 'current'
              : 'pending';
        const look = STEP_ICON[state];
        return (
          <List.Item
            key={s.step}
            data-step={s.step}
            data-state={state}
            icon={
              <ThemeIcon size={20} radius="xl" color={look.color} variant="light">
                {look.icon}
              </ThemeIcon>
            }
          >
            <Text span size="sm" fw={state === 'current' ? 600 : 400} {...(state === 'failed' ? { c: 'red' } : {})}>
              {s.label}
            </Text>
            <Text span size="xs" c="dimmed">
              {` (${look.words})`}
            </Text>
            {failed ? (
              <Text size="sm" c="red">
                {cleanText(flow.failed?.message ?? '')}
              </Text>
            ) : null}
          </List.Item>
        );
      })}
    </List>
  );
}
