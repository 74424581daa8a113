// Contract types for the MCP Registry browser, install links and the doctor walk.

/** Contract methods of the registry domain: name → (argument object) → result. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RegistryInvokeMap {}

/** Events the core pushes for the registry domain: name → payload. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RegistryEventMap {}
