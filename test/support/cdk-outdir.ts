import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Outdirs for a test file's `new App()`s, removed after the file's tests. Without one, CDK
 * synthesises into a new `cdk.outXXXX` folder under the system's temp directory for every app
 * and never removes it (16 folders a suite run). Call it at the top of the test file: the
 * cleanup is registered on that file.
 *
 * @example
 * const cdkOutdir = cdkOutdirs();
 * const app = new App({ outdir: cdkOutdir(), context: CDK_JSON_CONTEXT });
 */
export function cdkOutdirs(): () => string {
  const root = mkdtempSync(join(tmpdir(), 'hookgate-cdk-test-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let apps = 0;
  return () => join(root, `app-${++apps}`);
}
