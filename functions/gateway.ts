// The gateway λ: a Function URL in front of the Hono app. Wiring only; the parts are composed in src/runtime/.
import { handle } from 'hono/aws-lambda';
import { loadDeploymentConfig } from '../src/config/deployment-config.ts';
import { engineWithHookRunLog } from './support/hook-run-log.ts';
import { createRuntime } from '../src/runtime/create-runtime.ts';
import { createGatewayFunction } from '../src/runtime/gateway-function.ts';
import { loadSecretEnvironment } from './support/secret-environment.ts';
import { keepServingAfterStrayHookErrors } from './support/stray-hook-errors.ts';

keepServingAfterStrayHookErrors('hookgate-gateway');
await loadSecretEnvironment();
const runtime = createRuntime(loadDeploymentConfig(process.env, { runtime: 'aws' }), {
  createEngine: engineWithHookRunLog('hookgate-gateway'),
});
// The console's code (and its schemas) loads only where it is served: most deployments never turn it on.
const mount = runtime.config.console
  ? (await import('../src/console/mount-lambda-console.ts')).mountConsoleWhenEnabled
  : undefined;
export const handler = handle((await createGatewayFunction(runtime, mount ? { mount } : {})).app);
