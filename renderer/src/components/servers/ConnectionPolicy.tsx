// The dialog's "Connection policy" panel: lifecycle, startup, concurrency and the per-server switches.
import { Accordion, Checkbox, NativeSelect, SimpleGrid, Stack } from '@mantine/core';
import type { ServerFormModel } from './server-form-model';
import type { FormSectionProps } from './form-section';

/** The collapsed policy settings, shared by every transport. */
export function ConnectionPolicy({ model: m, patch }: Omit<FormSectionProps, 'errors'>) {
  return (
    <Accordion variant="contained" chevronPosition="left">
      <Accordion.Item value="policy">
        <Accordion.Control>Connection policy</Accordion.Control>
        <Accordion.Panel>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              <NativeSelect
                label="Lifecycle"
                value={m.lifecycle}
                onChange={(e) => patch({ lifecycle: e.currentTarget.value as ServerFormModel['lifecycle'] })}
                data={[
                  { value: 'auto', label: 'auto (probe, then fall back)' },
                  { value: 'discover', label: 'discover (2026-07-28 only)' },
                  { value: 'initialize', label: 'initialize (legacy handshake)' },
                ]}
              />
              <NativeSelect
                label="Startup"
                value={m.startup}
                onChange={(e) => patch({ startup: e.currentTarget.value as ServerFormModel['startup'] })}
                data={['eager', 'background', 'manual']}
              />
              <NativeSelect
                label="Concurrency"
                value={m.concurrency}
                onChange={(e) => patch({ concurrency: e.currentTarget.value as ServerFormModel['concurrency'] })}
                data={[
                  { value: 'serial', label: 'serial' },
                  { value: 'readOnlyParallel', label: 'read-only calls in parallel' },
                  { value: 'parallel', label: 'parallel' },
                ]}
              />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
              <Checkbox label="Enabled" checked={m.enabled} onChange={(e) => patch({ enabled: e.currentTarget.checked })} />
              <Checkbox label="Required at start-up" checked={m.required} onChange={(e) => patch({ required: e.currentTarget.checked })} />
              <Checkbox
                label="Allow elicitation requests"
                checked={m.elicitation}
                onChange={(e) => patch({ elicitation: e.currentTarget.checked })}
              />
              <Checkbox label="Resources" checked={m.resources} onChange={(e) => patch({ resources: e.currentTarget.checked })} />
              <Checkbox label="Tasks extension" checked={m.tasks} onChange={(e) => patch({ tasks: e.currentTarget.checked })} />
            </SimpleGrid>
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
