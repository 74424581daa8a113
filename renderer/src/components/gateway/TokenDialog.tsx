// The token of a client, shown once after it was added or replaced, with a copy button. Switchboard keeps only a
// digest of it, so it cannot be shown again.
import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useStore } from '../../store';
import { AppDialog } from '../../ui/AppDialog';
import './gateway.css';

/** Shows the issued token until closed. */
export function TokenDialog() {
  const issued = useStore((s) => s.gatewayIssuedToken);
  const dismiss = useStore((s) => s.dismissIssuedToken);
  if (!issued) return null;
  return (
    <AppDialog
      opened
      onClose={dismiss}
      title={issued.reason === 'added' ? `${issued.name} was added` : `New token for ${issued.name}`}
      actions={
        <Button variant="filled" onClick={dismiss}>
          Done
        </Button>
      }
      describedBy="token-help"
    >
      <Stack gap="sm" className="sb-gw">
        <Text id="token-help" size="sm">
          This is the client’s token for the HTTP endpoint (header <Code>Authorization: Bearer …</Code>). It is shown only now: Switchboard
          keeps just a fingerprint of it. The stdio entry point (<Code>switchboard-gateway --client {issued.name}</Code>) needs no token.
        </Text>
        {issued.reason === 'rotated' && (
          <Alert color="yellow" title="The old token no longer works">
            Apps that used it over HTTP need this one.
          </Alert>
        )}
        <Group gap="xs" wrap="nowrap" align="center">
          <Code block className="sb-gw-wrap" aria-label="Token">
            {issued.token}
          </Code>
          <CopyButton value={issued.token}>
            {({ copied, copy }) => (
              <Button
                variant="default"
                onClick={copy}
                leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
              >
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </AppDialog>
  );
}
