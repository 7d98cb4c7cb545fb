// The gateway λ: a Function URL in front of the Hono app. Wiring only; the logic is in src/gateway/.
import { handle } from 'hono/aws-lambda';
import { createLambdaGateway } from '../src/gateway/lambda-gateway.ts';
import { createHookEngine } from '../src/hooks/create-hook-engine.ts';
import { loadSecretEnvironment } from './support/secret-environment.ts';

await loadSecretEnvironment();
const { app } = await createLambdaGateway({ createEngine: createHookEngine });

export const handler = handle(app);
