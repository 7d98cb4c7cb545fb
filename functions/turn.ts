// The turn λ: SQS (FIFO turns queue, timers queue) → run or resume one agent turn. Wiring only; the parts are composed in src/runtime/.
import { loadDeploymentConfig } from '../src/config/deployment-config.ts';
import { engineWithHookRunLog } from './support/hook-run-log.ts';
import { createRuntime } from '../src/runtime/create-runtime.ts';
import { createTurnFunction } from '../src/runtime/turn-function.ts';
import { loadSecretEnvironment } from './support/secret-environment.ts';
import { keepServingAfterStrayHookErrors } from './support/stray-hook-errors.ts';

keepServingAfterStrayHookErrors('hookgate-turn');
await loadSecretEnvironment();
const runtime = createRuntime(loadDeploymentConfig(process.env, { runtime: 'aws' }), {
  createEngine: engineWithHookRunLog('hookgate-turn'),
});
export const handler = await createTurnFunction(runtime);
