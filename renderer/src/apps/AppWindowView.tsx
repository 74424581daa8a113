// One call's app on a page of its own (#/app/<callId>): the "open in its own window" target, a browser tab in
// headless mode and a window in the desktop app. Same sandbox, same bridge; the app fills the page.
import { Alert } from '@mantine/core';
import { useEffect } from 'react';
import { AppView } from './AppView';

/** The standalone app page. */
export function AppWindowView({ callId }: { callId: string | undefined }) {
  useEffect(() => {
    document.title = 'App · Switchboard';
  }, []);
  if (!callId) {
    return (
      <Alert color="red" m="xl" title="No app to show" role="alert">
        This page shows the app of one call; its link names none.
      </Alert>
    );
  }
  return (
    <main aria-label="App window">
      <AppView callId={callId} standalone />
    </main>
  );
}
