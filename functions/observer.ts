// The observer λ: SQS (events queue) → run observer hooks once per envelope. Wiring only; the parts are composed in src/runtime/.
import { loadDeploymentConfig } from '../src/config/deployment-config.ts';
import { engineWithHookRunLog } from './support/hook-run-log.ts';
import { createRuntime } from '../src/runtime/create-runtime.ts';
import { createObserverFunction } from '../src/runtime/observer-function.ts';
import { loadSecretEnvironment } from './support/secret-environment.ts';
import { keepServingAfterStrayHookErrors } from './support/stray-hook-errors.ts';

keepServingAfterStrayHookErrors('hookgate-observer');
await loadSecretEnvironment();
const runtime = createRuntime(loadDeploymentConfig(process.env, { runtime: 'aws' }), {
  createEngine: engineWithHookRunLog('hookgate-observer'),
});
export const handler = await createObserverFunction(runtime);
