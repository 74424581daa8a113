// `ui/open-link`: nothing opens until the person has seen the whole address (host highlighted, warnings) and agreed.
import { Alert, Button, Code, Mark, Stack, Text } from '@mantine/core';
import { describeElicitationUrl } from '../../../shared/domains/resources-elicitation';
import { escapeUnsafe } from '../../../shared/domains/catalog-text';
import { AppDialog } from '../ui/AppDialog';

/** Props of the consent dialog. */
export interface LinkConsentDialogProps {
  /** The link the app asked to open; null when closed. */
  url: string | null;
  /** The app's display name. */
  appName: string;
  onAnswer: (open: boolean) => void;
}

/** Asks before an app's link is opened outside Switchboard. */
export function LinkConsentDialog({ url, appName, onAnswer }: LinkConsentDialogProps) {
  const described = url === null ? undefined : describeElicitationUrl(url);
  const shown = url === null ? '' : escapeUnsafe(url.slice(0, 4000));
  const at = described ? shown.indexOf(described.host) : -1;
  return (
    <AppDialog
      opened={url !== null}
      onClose={() => onAnswer(false)}
      title="Open a link from the app?"
      size="md"
      actions={
        <>
          <Button onClick={() => onAnswer(false)}>Cancel</Button>
          <Button variant="filled" disabled={!described} onClick={() => onAnswer(true)}>
            Open link
          </Button>
        </>
      }
    >
      <Stack gap="sm">
        <Text size="sm">{escapeUnsafe(appName)} asks to open this address in your browser. Nothing has been loaded.</Text>
        <Code block data-testid="app-link-url">
          {at >= 0 && described ? (
            <>
              {shown.slice(0, at)}
              <Mark data-testid="app-link-host">{described.host}</Mark>
              {shown.slice(at + described.host.length)}
            </>
          ) : (
            shown
          )}
        </Code>
        {!described && (
          <Alert color="red" title="This link cannot be opened">
            Only http and https addresses can be opened.
          </Alert>
        )}
        {described?.warnings.map((w) => (
          <Alert key={w} color="yellow">
            {w}
          </Alert>
        ))}
      </Stack>
    </AppDialog>
  );
}
