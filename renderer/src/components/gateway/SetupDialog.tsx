// "Use from another app": the exact entry for Claude Desktop, Cursor or VS Code, with a copy button and a preview
// of that app's config file after the change; with confirmation, Switchboard writes it (backing the file up).
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  List,
  PasswordInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type {
  GatewayClientView,
  GatewaySetupApp,
  GatewaySetupPreview,
  GatewaySetupResult,
  GatewaySetupTransport,
} from '../../../../shared/domains/gateway';
import { AppError } from '../../../../shared/errors';
import { useStore } from '../../store';
import { AppDialog } from '../../ui/AppDialog';
import './gateway.css';

const APPS: { value: GatewaySetupApp; label: string }[] = [
  { value: 'claude', label: 'Claude Desktop' },
  { value: 'cursor', label: 'Cursor' },
  { value: 'vscode', label: 'VS Code' },
];

/** Props of SetupDialog. */
export interface SetupDialogProps {
  client: GatewayClientView;
  onClose: () => void;
}

/** The set-up help for one client. */
export function SetupDialog({ client, onClose }: SetupDialogProps) {
  const previewSetup = useStore((s) => s.previewGatewaySetup);
  const installSetup = useStore((s) => s.installGatewaySetup);
  const running = useStore((s) => s.gatewayStatus?.running === true);
  const [app, setApp] = useState<GatewaySetupApp>('claude');
  const [transport, setTransport] = useState<GatewaySetupTransport>('stdio');
  const [file, setFile] = useState('');
  const [token, setToken] = useState('');
  const [preview, setPreview] = useState<GatewaySetupPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [writing, setWriting] = useState(false);
  const [written, setWritten] = useState<GatewaySetupResult | null>(null);

  const effective: GatewaySetupTransport = app === 'claude' ? 'stdio' : transport;
  const args = {
    id: client.id,
    app,
    transport: effective,
    ...(file.trim() ? { file: file.trim() } : {}),
    ...(effective === 'http' && token.trim() ? { token: token.trim() } : {}),
  };
  const argsKey = JSON.stringify(args);

  useEffect(() => {
    let live = true;
    setConfirming(false);
    setWritten(null);
    previewSetup(JSON.parse(argsKey) as typeof args).then(
      (p) => {
        if (!live) return;
        setPreview(p);
        setError(null);
        if (!file) setFile(p.file);
      },
      (err: unknown) => {
        if (!live) return;
        setPreview(null);
        setError(err instanceof AppError ? err.message : 'The entry could not be prepared');
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- argsKey stands for args
  }, [argsKey, previewSetup]);

  const chooseApp = (value: GatewaySetupApp): void => {
    setApp(value);
    setFile('');
  };

  const write = async (): Promise<void> => {
    setWriting(true);
    try {
      setWritten(await installSetup(args));
      setError(null);
    } catch (err) {
      setError(err instanceof AppError ? err.message : 'The file could not be written');
    } finally {
      setWriting(false);
      setConfirming(false);
    }
  };

  const needsToken = effective === 'http' && app === 'cursor' && !token.trim();
  return (
    <AppDialog
      opened
      onClose={onClose}
      size="xl"
      title={`Connect an app as “${client.name}”`}
      actions={
        <>
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          {confirming ? (
            <Button variant="filled" onClick={() => void write()} loading={writing}>
              Write {preview ? shortName(preview.file) : 'the file'}
            </Button>
          ) : (
            <Button variant="filled" onClick={() => setConfirming(true)} disabled={!preview || needsToken || written !== null}>
              Write it into the app’s config…
            </Button>
          )}
        </>
      }
    >
      <Stack gap="md" className="sb-gw">
        <Group gap="md" align="flex-end" wrap="wrap">
          <Select
            label="App"
            data={APPS}
            value={app}
            onChange={(v) => v && chooseApp(v as GatewaySetupApp)}
            allowDeselect={false}
            w={200}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="setup-transport">
              Connects through
            </Text>
            <SegmentedControl
              aria-labelledby="setup-transport"
              value={effective}
              onChange={(v) => setTransport(v as GatewaySetupTransport)}
              data={[
                { value: 'stdio', label: 'switchboard-gateway (stdio)' },
                { value: 'http', label: 'HTTP URL', disabled: app === 'claude' },
              ]}
            />
          </Stack>
        </Group>
        {app === 'claude' && (
          <Text size="sm" c="dimmed">
            Claude Desktop’s config file starts stdio servers only, so it uses the switchboard-gateway entry.
          </Text>
        )}
        {!running && (
          <Alert color="yellow" title="The gateway is off">
            The entry works once the gateway is on and Switchboard is running.
          </Alert>
        )}
        {effective === 'http' && app === 'cursor' && (
          <PasswordInput
            label="This client’s token"
            description="Tokens are shown only when issued. Paste it here to put it in the entry, or issue a new one."
            value={token}
            onChange={(e) => setToken(e.currentTarget.value)}
          />
        )}
        {preview && (
          <>
            <Stack gap={4}>
              <Group justify="space-between" align="center">
                <Text fw={600}>The entry</Text>
                <CopyButton value={preview.entry}>
                  {({ copied, copy }) => (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={copy}
                      leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
                    >
                      {copied ? 'Copied' : 'Copy'}
                    </Button>
                  )}
                </CopyButton>
              </Group>
              <Code block className="sb-gw-preview" aria-label="Config entry">
                {preview.entry}
              </Code>
            </Stack>
            {preview.notes.length > 0 && (
              <List size="sm" spacing={2}>
                {preview.notes.map((n) => (
                  <List.Item key={n}>{n}</List.Item>
                ))}
              </List>
            )}
            <TextInput
              label="Config file"
              description={
                preview.exists
                  ? 'It exists: only the “switchboard” entry is set; a backup is made first.'
                  : 'It does not exist yet: it will be created.'
              }
              value={file}
              onChange={(e) => setFile(e.currentTarget.value)}
            />
            <Stack gap={4}>
              <Text fw={600}>The file after the change</Text>
              <Code block className="sb-gw-preview" aria-label="File preview">
                {preview.preview}
              </Code>
            </Stack>
          </>
        )}
        {confirming && preview && (
          <Alert color="yellow" title="Write this file?" role="status">
            Switchboard will write {preview.file}
            {preview.exists ? ', after copying the current file aside' : ''}. Other entries stay as they are
            {preview.replaces ? '; the existing “switchboard” entry is replaced' : ''}.
          </Alert>
        )}
        {written && (
          <Alert color="green" title="Written" role="status">
            {written.file} now has the entry{written.backup ? `; the previous file is at ${written.backup}` : ''}. Restart the app to pick
            it up.
          </Alert>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
      </Stack>
    </AppDialog>
  );
}

function shortName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts.slice(-2).join('/');
}
