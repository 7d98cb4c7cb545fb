// The turn λ: SQS (FIFO turns queue, timers queue) → run or resume one agent turn. Wiring only; the logic is in src/agent/.
import { createLambdaTurn } from '../src/agent/lambda-turn.ts';
import { createEngineFromBundle } from '../src/hooks/bundled-hooks.ts';
import { loadSecretEnvironment } from './support/secret-environment.ts';

await loadSecretEnvironment();

export const handler = await createLambdaTurn({ createEngine: createEngineFromBundle });
