// The browser capabilities an app asked for (`_meta.ui.permissions`) that its server was not granted: shown, denied,
// and grantable for that server only (the app is reloaded to take them).
import { Alert, Button, Group, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { AppLaunch, AppPermission } from '../../../shared/domains/apps';
import { useStore } from '../store';

/** Plain names of the capabilities. */
export const PERMISSION_LABELS: Record<AppPermission, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'location',
  clipboardWrite: 'writing to the clipboard',
};

/** Shows missing grants and offers to allow them for the server. */
export function AppPermissionPrompt({ launch, onReload }: { launch: AppLaunch; onReload: () => void }) {
  const missing = launch.permissions.requested.filter((p) => !launch.permissions.granted.includes(p));
  const apps = useStore((s) => s.serverApps[launch.serverId]);
  const load = useStore((s) => s.loadServerApps);
  const setGrants = useStore((s) => s.setAppGrants);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (missing.length > 0 && !apps) void load(launch.serverId);
  }, [missing.length, apps, load, launch.serverId]);
  if (missing.length === 0) return null;

  const allow = async (): Promise<void> => {
    setBusy(true);
    const current = apps?.grants ?? { permissions: [], popups: launch.popups };
    const permissions = [...new Set([...current.permissions, ...missing])];
    const ok = await setGrants(launch.serverId, { permissions, popups: current.popups });
    setBusy(false);
    if (ok) onReload();
  };

  return (
    <Alert color="yellow" m="sm" title="The app asks for more access" role="status">
      <Text size="sm">
        It requests {missing.map((p) => PERMISSION_LABELS[p]).join(', ')}. This is denied unless you allow it for {launch.serverName}; the
        browser may then ask you again.
      </Text>
      {missing.some((p) => p === 'camera' || p === 'microphone') && (
        <Text size="xs" className="sb-dim" mt={4}>
          Chromium does not give the camera or microphone to a page with an opaque origin, which is how apps run here, so these stay
          unavailable even when allowed.
        </Text>
      )}
      <Group mt="xs" gap="xs">
        <Button size="xs" loading={busy} onClick={() => void allow()}>
          Allow for {launch.serverName} and reload
        </Button>
      </Group>
    </Alert>
  );
}
