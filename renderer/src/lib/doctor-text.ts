// The connection doctor's words: a failure's headline without the evidence repeated in it, a plain next step for
// every error code, and the evidence as labelled facts (PATH once, never empty).
import type { AppErrorData } from '../../../shared/errors';

/** What the doctor panel shows for one failure. */
export interface DoctorView {
  /** The failure in plain words (evidence that is shown below is cut from it). */
  headline: string;
  /** What to do next, in plain words. */
  nextStep: string;
  /** Labelled facts (phase, exit code, HTTP status, URL, timeout). */
  facts: { label: string; value: string; mono?: boolean }[];
  /** PATH directories searched, when there were any. */
  searchedPath?: string[];
  /** The server's last stderr lines, when there were any. */
  stderr?: string[];
}

const PHASES: Record<string, string> = {
  setup: 'Setting up the connection',
  spawn: 'Starting the program',
  probe: 'Asking the server what it supports (server/discover)',
  handshake: 'Initialize handshake',
  verify: 'Checking the cached discovery result',
  session: 'After connecting',
  listing: 'Listing',
  request: 'A request',
};

function httpNextStep(status: number | undefined): string {
  if (status === 404) return 'Check the path of the URL: many servers answer MCP at /mcp (or /sse for the legacy transport).';
  if (status === 401 || status === 403) return 'Open the Sign-in tab and sign in, or set a bearer token there.';
  if (status === 405) return 'The address does not accept MCP requests: check the URL and the transport (HTTP or SSE).';
  if (status !== undefined && status >= 500) return 'The server reported a problem of its own: try again later, or ask its operator.';
  return 'Check the URL and that the server is running, then connect again.';
}

/** The next step for an error code (and its evidence). */
export function nextStepFor(error: AppErrorData): string {
  const ev = error.evidence;
  switch (error.code) {
    case 'command_not_found':
      return 'Install the program, or give its full path in the server’s Command (Edit), then connect again.';
    case 'spawn_failed':
      return 'Check the command and the working directory (Edit), then connect again.';
    case 'process_exited':
    case 'connection_closed':
      return ev?.stderrTail?.some((l) => l.trim() !== '')
        ? 'Read the server’s last lines below, fix what they name (often a missing argument or environment variable), then connect again.'
        : 'Check that the command starts an MCP server over stdio (it must not print anything else on stdout), then connect again.';
    case 'timeout':
      return 'The server may be slow to start: connect again, or raise the timeout in the server’s definition.';
    case 'http_error':
      return httpNextStep(ev?.httpStatus);
    case 'connect_failed':
      return ev?.url
        ? 'Check that the server is running and that this computer can reach its address, then connect again.'
        : 'Check the server’s definition (Edit), then connect again.';
    case 'auth_required':
    case 'authorization_required':
      return 'Open the Sign-in tab and sign in, or set a bearer token there.';
    case 'protocol_mismatch':
      return 'Edit the server and set Lifecycle to “auto” under Connection policy, then connect again.';
    case 'redirect_refused':
      return 'Use the address the server redirects to as the URL (Edit).';
    case 'url_refused':
      return 'Use an https address (plain http only for this computer), without a user name or password in it.';
    case 'config_invalid':
      return 'Edit the server and correct the field named above.';
    case 'approval_required':
      return ev?.missingSecrets?.length
        ? `Enter ${ev.missingSecrets.join(', ')} again in the server’s settings (Edit), then approve its launch.`
        : 'Review the command above and approve it.';
    case 'limit_exceeded':
      return 'The server sent more than Switchboard accepts. Raise the limit in the server’s definition only if you trust it.';
    case 'catalog_invalid':
      return 'The server’s tool list was rejected; the last good list stays in use. Refresh the tools later or tell the server’s author.';
    default:
      return 'Connect again; if it keeps failing, the log below shows what happened.';
  }
}

/** Builds the doctor panel's content for a failure. */
export function doctorView(error: AppErrorData): DoctorView {
  const ev = error.evidence ?? {};
  const stderr = (ev.stderrTail ?? []).filter((l) => l.trim() !== '');
  const searchedPath = (ev.searchedPath ?? []).filter((d) => d.trim() !== '');
  // The message repeats evidence the panel shows anyway: cut it once here.
  let headline = error.message.replace(/\s*Searched PATH:[\s\S]*$/, '');
  if (stderr.length > 0) headline = headline.replace(/\s*Last stderr:[\s\S]*$/, '');
  headline = headline.trim() || error.message;
  if (!/[.!?…]$/.test(headline)) headline += '.';
  const facts: DoctorView['facts'] = [];
  if (ev.phase) facts.push({ label: 'When', value: PHASES[ev.phase] ?? ev.phase });
  if (ev.timeout) facts.push({ label: 'Timeout', value: `${ev.timeout.seconds} s (${ev.timeout.name})` });
  if (ev.exitCode !== undefined && ev.exitCode !== null) facts.push({ label: 'Exit code', value: String(ev.exitCode) });
  if (ev.signal) facts.push({ label: 'Signal', value: ev.signal });
  if (ev.httpStatus !== undefined) facts.push({ label: 'HTTP status', value: String(ev.httpStatus) });
  if (ev.url) facts.push({ label: 'URL', value: ev.url, mono: true });
  return {
    headline,
    nextStep: nextStepFor(error),
    facts,
    ...(searchedPath.length > 0 ? { searchedPath } : {}),
    ...(stderr.length > 0 ? { stderr } : {}),
  };
}
