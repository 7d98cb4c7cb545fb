import { readFileSync } from 'node:fs';

/**
 * The `context` of the repository's cdk.json (the feature flags `cdk deploy` synthesises
 * with), so that a test's `new App()` synthesises what a deploy would.
 */
export const CDK_JSON_CONTEXT: Record<string, unknown> = (
  JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> }
).context;
