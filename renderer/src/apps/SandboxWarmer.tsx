// Keeps the MCP Apps sandbox's browser processes running while a tool with an app is on screen: a hidden frame of the
// sandbox's warm-up page (an empty page holding an empty sandboxed frame, the same shape an app runs in). The app's
// own frames then join processes that already exist instead of starting two, so the app opens sooner.
import { useStore } from '../store';
import { sandboxSrc } from './sandbox-url';

/** A hidden, inert frame of the sandbox's warm-up page (nothing when the shell serves no sandbox). */
export function SandboxWarmer() {
  const warmUrl = useStore((s) => s.info?.appsWarmUrl ?? null);
  if (warmUrl === null) return null;
  return (
    <iframe
      className="sb-app-warmer"
      src={sandboxSrc(warmUrl, window.location)}
      // Same-origin keeps the page on the sandbox origin (the site whose process the proxy uses); no scripts run.
      sandbox="allow-same-origin"
      title="App sandbox (idle)"
      aria-hidden="true"
      tabIndex={-1}
      referrerPolicy="no-referrer"
      hidden
    />
  );
}
