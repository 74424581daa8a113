// The environment rows of a stdio server: name, value (hidden when secret), a Secret toggle, and whether the whole
// environment of Switchboard is passed on.
import { ActionIcon, Box, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { FormSectionProps } from './form-section';

/** The Environment fieldset. */
export function EnvironmentField({ model: m, patch, errors }: FormSectionProps) {
  return (
    <Box component="fieldset" style={{ border: 0, margin: 0, padding: 0 }}>
      <Text component="legend" fw={500} size="sm" mb={6}>
        Environment
      </Text>
      <Stack gap="xs">
        {m.env.map((row, i) => (
          <Group key={i} gap="xs" wrap="nowrap" align="center">
            <TextInput
              aria-label={`Environment name ${i + 1}`}
              placeholder="NAME"
              value={row.key}
              onChange={(e) => patch({ env: m.env.map((r, j) => (j === i ? { ...r, key: e.currentTarget.value } : r)) })}
              style={{ flex: '0 1 200px' }}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
            {row.secret ? (
              <PasswordInput
                aria-label={`Environment value ${i + 1}`}
                placeholder={row.isSet ? '(stored — leave empty to keep)' : 'value'}
                value={row.value}
                onChange={(e) => patch({ env: m.env.map((r, j) => (j === i ? { ...r, value: e.currentTarget.value } : r)) })}
                style={{ flex: 1 }}
              />
            ) : (
              <TextInput
                aria-label={`Environment value ${i + 1}`}
                placeholder="value"
                value={row.value}
                onChange={(e) => patch({ env: m.env.map((r, j) => (j === i ? { ...r, value: e.currentTarget.value } : r)) })}
                style={{ flex: 1 }}
              />
            )}
            <Checkbox
              label="Secret"
              checked={row.secret}
              onChange={(e) => patch({ env: m.env.map((r, j) => (j === i ? { ...r, secret: e.currentTarget.checked } : r)) })}
            />
            <ActionIcon
              size="lg"
              color="red"
              aria-label={`Remove environment variable ${i + 1}`}
              onClick={() => patch({ env: m.env.filter((_, j) => j !== i) })}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        ))}
        {errors['env'] && (
          <Text size="sm" c="red" role="alert">
            {errors['env']}
          </Text>
        )}
        <Group gap="md">
          <Button
            size="xs"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => patch({ env: [...m.env, { key: '', value: '', secret: false, isSet: false }] })}
          >
            Add variable
          </Button>
          <Checkbox
            label="Inherit the whole environment of Switchboard"
            checked={m.inheritEnv}
            onChange={(e) => patch({ inheritEnv: e.currentTarget.checked })}
          />
        </Group>
      </Stack>
    </Box>
  );
}
