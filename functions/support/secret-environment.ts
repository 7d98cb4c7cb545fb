import * as z from '../../src/validation/zod.ts';
import { rememberDeploymentSecret } from '../../src/secrets/secret-variables.ts';
import { RESOURCE_ENV } from '../../src/pipeline/resource-env.ts';
import { ConfigError } from '../../src/config/config-error.ts';
import { AWS_REQUEST_TIMEOUTS, requestHandlerWith, type AwsRequestTimeouts } from '../../src/pipeline/aws-request-timeouts.ts';

const SecretJson = z.record(z.string(), z.string());

/**
 * Copies the function's secrets (each one JSON object of strings) into `process.env` at cold
 * start, before configuration is validated: the gateway's (`HOOKGATE_SECRET_ARN`: inbound
 * verification secrets, `/v1` token) where the stack set it — on the gateway alone — and the
 * reply secret (`HOOKGATE_REPLY_SECRET_ARN`: reply credentials, model key) on the gateway, the
 * turn and the observer function. Empty values stay unset: an unset platform secret disables that platform.
 * Variables already set in the environment win, so an operator can override one value on a
 * function without touching a secret. A connection that does not connect or falls silent is given
 * up after `timeouts` and the request sent again, so a cold start fails in seconds, not at the
 * function's timeout.
 *
 * @example
 * await loadSecretEnvironment(); // then loadDeploymentConfig(process.env)
 */
export async function loadSecretEnvironment(
  env: NodeJS.ProcessEnv = process.env,
  timeouts: AwsRequestTimeouts = AWS_REQUEST_TIMEOUTS,
): Promise<void> {
  const arns = [env[RESOURCE_ENV.secretArn], env[RESOURCE_ENV.replySecretArn]].filter((arn): arn is string => Boolean(arn));
  if (arns.length === 0) return;
  // Loaded here, not at the top: a function run without a secret (tests, local) never loads the package.
  const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
  const client = new SecretsManagerClient({ ...requestHandlerWith(timeouts) });
  try {
    // Fetched together (one round trip of cold start, not two), applied in order.
    const answers = await Promise.all(arns.map((secretArn) => client.send(new GetSecretValueCommand({ SecretId: secretArn }))));
    answers.forEach(({ SecretString }, index) => {
      const secret = secretObject(arns[index]!, SecretString ?? '{}');
      // Every key and value of it is secret from now on: withheld from children, redacted from output.
      rememberDeploymentSecret(secret);
      for (const [key, value] of Object.entries(secret)) {
        if (value !== '' && env[key] === undefined) env[key] = value;
      }
    });
  } finally {
    client.destroy();
  }
}

/**
 * A secret's value: one JSON object of strings. Text that is not JSON fails as one that is not
 * an object does, naming the secret and never quoting it (a JSON.parse error would quote it).
 */
function secretObject(arn: string, text: string): Record<string, string> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = SecretJson.safeParse(json);
  if (!parsed.success) throw new ConfigError(`secret ${arn}`, 'must be a JSON object of strings');
  return parsed.data;
}
