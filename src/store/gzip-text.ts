/** node:zlib, loaded with the first item packed or unpacked rather than at every cold start (≈ 3 ms). */
let zlib: Promise<typeof import('node:zlib')> | undefined;
const loadZlib = () => (zlib ??= import('node:zlib'));

/**
 * Text gzipped for a binary attribute: what the stores keep of a big JSON value (a turn's trace
 * records, a suspended turn's state), so the item stays inside DynamoDB's 400 KB.
 *
 * @example
 * const packed = await gzipText(JSON.stringify(records)); // Uint8Array, stored as B
 */
export async function gzipText(text: string): Promise<Uint8Array> {
  const { gzip } = await loadZlib();
  return new Promise((resolve, reject) => gzip(text, (error, out) => (error ? reject(error) : resolve(out))));
}

/**
 * The text `gzipText` packed. Rejects on bytes that do not unzip.
 *
 * @example
 * JSON.parse(await gunzipText(item.records_gz));
 */
export async function gunzipText(gzipped: Uint8Array): Promise<string> {
  const { gunzip } = await loadZlib();
  const out = await new Promise<Buffer>((resolve, reject) =>
    gunzip(gzipped, (error, unzipped) => (error ? reject(error) : resolve(unzipped))),
  );
  return out.toString('utf8');
}
