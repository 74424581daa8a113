// The size a received message had on the wire, remembered by the transport that read it, so later steps (the
// protocol log) need not walk an 8 MiB message again to count it. Keyed weakly on the message object.
const sizes = new WeakMap<object, number>();

/** Messages at least this large have their size noted; a smaller one is counted faster than it is noted. */
export const NOTED_WIRE_BYTES = 64 * 1024;

/** Notes that `message` arrived as `bytes` bytes. */
export function noteWireBytes(message: object, bytes: number): void {
  sizes.set(message, bytes);
}

/** The bytes `message` arrived as, when its transport noted them. */
export function wireBytes(message: object): number | undefined {
  return sizes.get(message);
}
