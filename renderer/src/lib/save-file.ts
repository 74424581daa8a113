// Saves data the user asked for as a file through the browser's download, with no navigation.

/** Offers `data` as a download named `fileName`. */
export function saveFile(fileName: string, data: string | Uint8Array<ArrayBuffer>, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  // Revoke later: some browsers start reading the blob only after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
