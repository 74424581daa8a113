// Contract types for the protocol view and the client features a person answers by hand (sampling, roots).

/** Contract methods of the protocol domain: name → (argument object) → result. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ProtocolInvokeMap {}

/** Events the core pushes for the protocol domain: name → payload. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ProtocolEventMap {}
