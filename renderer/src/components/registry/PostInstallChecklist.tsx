// The manual steps a package lists for after installing, as a checklist the person ticks off. A command is shown as
// text to copy and run yourself: Switchboard never runs it, and nothing here is rendered as HTML.
import { ActionIcon, Anchor, Checkbox, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import type { PostInstallStep } from '../../../../shared/domains/registry';
import { escapeUnsafe } from '../../../../shared/domains/catalog-text';

/** The checklist of post-install steps. */
export function PostInstallChecklist({ steps }: { steps: PostInstallStep[] }) {
  const [done, setDone] = useState<boolean[]>(() => steps.map(() => false));
  return (
    <Stack gap="sm" role="group" aria-label="Steps after installing" data-post-install>
      <Text fz="sm">
        The package asks for these steps after installing. Switchboard does not run them: copy a command into your own terminal if you want
        it.
      </Text>
      {steps.map((step, i) => (
        <Stack key={i} gap={4}>
          <Checkbox
            checked={done[i] ?? false}
            onChange={(e) => {
              const checked = e.currentTarget.checked;
              setDone((cur) => cur.map((v, j) => (j === i ? checked : v)));
            }}
            label={`${escapeUnsafe(step.description)}${step.optional ? ' (optional)' : ''}`}
          />
          {step.command !== undefined && (
            <Group gap={6} wrap="nowrap" pl={30}>
              <Code block style={{ flex: 1, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
                {escapeUnsafe(step.command)}
              </Code>
              <CopyButton value={step.command}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? 'Copied' : 'Copy command'} withinPortal>
                    <ActionIcon variant="default" onClick={copy} aria-label="Copy command">
                      {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
          )}
          {step.documentation !== undefined && (
            <Anchor href={step.documentation} target="_blank" rel="noopener noreferrer" fz="sm" pl={30}>
              Documentation
            </Anchor>
          )}
        </Stack>
      ))}
    </Stack>
  );
}
