// `ui/open-link`: nothing opens until the person has seen the whole address (host highlighted as it reads, the
// core's warnings) and agreed. The verdict comes from the core's URL policy, the same check that guards opening.
import { Alert, Button, Code, Mark, Stack, Text } from '@mantine/core';
import type { AppLinkCheck } from '../../../shared/domains/apps';
import { escapeUnsafe } from '../../../shared/domains/catalog-text';
import { AppDialog } from '../ui/AppDialog';

/** Props of the consent dialog. */
export interface LinkConsentDialogProps {
  /** The link the app asked to open and the core's verdict on it; null when closed. */
  link: { url: string; check: AppLinkCheck } | null;
  /** The app's display name. */
  appName: string;
  onAnswer: (open: boolean) => void;
}

/** Asks before an app's link is opened outside Switchboard. */
export function LinkConsentDialog({ link, appName, onAnswer }: LinkConsentDialogProps) {
  const check = link?.check;
  // An accepted link is shown as the core will open it (host decoded); a refused one as the app sent it, escaped.
  const shown = escapeUnsafe((check?.ok ? check.display : (link?.url ?? '')).slice(0, 4000));
  const host = check?.ok ? check.host : '';
  const at = host === '' ? -1 : shown.indexOf(`//${host}`) + 2;
  return (
    <AppDialog
      opened={link !== null}
      onClose={() => onAnswer(false)}
      title="Open a link from the app?"
      size="md"
      actions={
        <>
          <Button onClick={() => onAnswer(false)}>Cancel</Button>
          <Button variant="filled" disabled={!check?.ok} onClick={() => onAnswer(true)}>
            Open link
          </Button>
        </>
      }
    >
      <Stack gap="sm">
        <Text size="sm">{escapeUnsafe(appName)} asks to open this address in your browser. Nothing has been loaded.</Text>
        <Code block data-testid="app-link-url">
          {at >= 2 ? (
            <>
              {shown.slice(0, at)}
              <Mark data-testid="app-link-host">{host}</Mark>
              {shown.slice(at + host.length)}
            </>
          ) : (
            shown
          )}
        </Code>
        {check && !check.ok && (
          <Alert color="red" title="This link cannot be opened">
            {escapeUnsafe(check.reason)}
          </Alert>
        )}
        {check?.ok &&
          check.warnings.map((w) => (
            <Alert key={w} color="yellow">
              {escapeUnsafe(w)}
            </Alert>
          ))}
      </Stack>
    </AppDialog>
  );
}
