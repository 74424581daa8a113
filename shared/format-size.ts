// The one way Switchboard writes a byte count, in the core's messages and the renderer alike: whole units as
// "8 MiB" / "16 KiB", others to one decimal ("1.5 KiB"), small counts in bytes.

/** A byte count in plain words ("8 MiB", "1.5 KiB", "100 bytes", "1 byte"). */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(bytes % 1024 === 0 ? 0 : 1)} KiB`;
  return `${bytes} byte${bytes === 1 ? '' : 's'}`;
}
