// The one message the apps sandbox proxy sends the renderer on its own account. The proxy drops every
// `ui/notifications/sandbox-*` message an app sends, so an app can never make one of these.

/** Method of the proxy's report of a message it dropped (`params.reason` says which and why). */
export const SANDBOX_REFUSED_METHOD = 'ui/notifications/sandbox-refused';
