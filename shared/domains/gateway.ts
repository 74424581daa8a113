// Contract types for the gateway that serves Switchboard's connections to other MCP apps.

/** Contract methods of the gateway domain: name → (argument object) → result. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface GatewayInvokeMap {}

/** Events the core pushes for the gateway domain: name → payload. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface GatewayEventMap {}
