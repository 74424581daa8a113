// The size a message had on the wire, remembered by the transport that read or wrote it, so later steps (the protocol
// log) need not walk the message again to count it. A large message is keyed weakly on its object; the last small one
// is kept in a single slot, because the protocol log records a message in the same turn its transport handles it, and
// one comparison costs less than counting it (or a weak-table update).
const sizes = new WeakMap<object, number>();
let lastMessage: object | undefined;
let lastBytes = 0;

/** Messages at least this large have their size noted in the weak table (never held in the slot). */
export const NOTED_WIRE_BYTES = 64 * 1024;

/** Notes that `message` crossed the wire as `bytes` bytes. */
export function noteWireBytes(message: object, bytes: number): void {
  if (bytes >= NOTED_WIRE_BYTES) {
    sizes.set(message, bytes);
    return;
  }
  lastMessage = message;
  lastBytes = bytes;
}

/** The bytes `message` crossed the wire as, when its transport noted them (and, for a small one, nothing came since). */
export function wireBytes(message: object): number | undefined {
  return message === lastMessage ? lastBytes : sizes.get(message);
}
