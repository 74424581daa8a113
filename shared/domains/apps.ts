// Contract types for MCP Apps (ui:// resources rendered in a sandbox).

/** Contract methods of the apps domain: name → (argument object) → result. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AppsInvokeMap {}

/** Events the core pushes for the apps domain: name → payload. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AppsEventMap {}
