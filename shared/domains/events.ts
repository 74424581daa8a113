// Contract types for the MCP Events extension client and the feed.

/** Contract methods of the events domain: name → (argument object) → result. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface EventsInvokeMap {}

/** Events the core pushes for the events domain: name → payload. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface EventsEventMap {}
