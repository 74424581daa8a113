// What a headless page and the headless shell agree on about the page's link: where the page asks whether its token
// is this run's (a browser never sees the status of a refused WebSocket upgrade).

/** POST here with the token in TOKEN_CHECK_HEADER: 204 when it is this run's, 401 when it is not. */
export const TOKEN_CHECK_PATH = '/bridge/check';
/** The header carrying the token to check. */
export const TOKEN_CHECK_HEADER = 'x-switchboard-token';
/** What a page whose link went stale tells the person. */
export const STALE_LINK_MESSAGE =
  'This tab was opened with the link of an earlier run of Switchboard, and the link changes every time it starts. ' +
  'Open the link it printed this time: the line "Switchboard is running at http://127.0.0.1:…" where `npm run headless` runs.';
