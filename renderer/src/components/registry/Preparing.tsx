// What a registry dialog shows while the core prepares what it shows: a busy line, or why it could not.
import { Alert, Group, Loader, Text } from '@mantine/core';

/** The busy line (`busyText`), or the error once preparing failed. */
export function Preparing({ error, busyText, errorTitle }: { error: string | null; busyText: string; errorTitle?: string }) {
  if (error)
    return (
      <Alert color="red" role="alert" {...(errorTitle !== undefined ? { title: errorTitle } : {})}>
        {error}
      </Alert>
    );
  return (
    <Group gap="xs" aria-busy="true">
      <Loader size="sm" aria-hidden />
      <Text>{busyText}</Text>
    </Group>
  );
}
