// The observer λ: SQS (events queue) → run observer hooks once per envelope. Wiring only; the logic is in src/pipeline/.
import { createHookEngine } from '../src/hooks/create-hook-engine.ts';
import { createLambdaObserver } from '../src/pipeline/observer-lambda.ts';
import { loadSecretEnvironment } from './support/secret-environment.ts';

await loadSecretEnvironment();

export const handler = await createLambdaObserver({ createEngine: createHookEngine });
