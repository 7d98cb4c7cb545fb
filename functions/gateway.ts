// The gateway λ: a Function URL in front of the Hono app. Wiring only; the logic is in src/gateway/.
import { handle } from 'hono/aws-lambda';
import { mountConsoleWhenEnabled } from '../src/console/mount-lambda-console.ts';
import { createLambdaGateway } from '../src/gateway/lambda-gateway.ts';
import { createEngineFromBundle } from '../src/hooks/bundled-hooks.ts';
import { loadSecretEnvironment } from './support/secret-environment.ts';

await loadSecretEnvironment();
const { app } = await createLambdaGateway({ createEngine: createEngineFromBundle, mount: mountConsoleWhenEnabled });

export const handler = handle(app);
