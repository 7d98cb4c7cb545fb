// The observer λ: SQS (events queue) → run observer hooks once per envelope. Wiring only; the logic is in src/pipeline/.
import { createEngineFromBundle } from '../src/hooks/bundled-hooks.ts';
import { createLambdaObserver } from '../src/pipeline/observer-lambda.ts';
import { loadSecretEnvironment } from './support/secret-environment.ts';

await loadSecretEnvironment();

export const handler = await createLambdaObserver({ createEngine: createEngineFromBundle });
