/**
 * Which environment variables hookgate knows to be secret (hook-semantics §5.8): shell hooks
 * do not inherit them, the terminal tool never sees them, and their values are redacted from
 * everything that leaves the process (see `redact-secrets.ts`).
 */

/** Fixed names: AWS credentials, the platforms' secrets and tokens, the model key, the `/v1` token, the http hook signing key. */
export const SECRET_VARIABLES: readonly string[] = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'TELEGRAM_BOT_TOKEN',
  'TELEGRAM_SECRET_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_BOT_TOKEN',
  'DISCORD_BOT_TOKEN',
  'WHATSAPP_APP_SECRET',
  'WHATSAPP_VERIFY_TOKEN',
  'WHATSAPP_ACCESS_TOKEN',
  'TEAMS_APP_PASSWORD',
  'HOOKGATE_MODEL_API_KEY',
  'HOOKGATE_API_TOKEN',
  'HOOKGATE_HTTP_HOOK_SECRET',
  'HOOKGATE_OTLP_HEADERS',
];

// The deployment secret is read once per cold start (functions/support/secret-environment.ts);
// its keys and values are secret whatever they are called, also when the environment already
// had a value of its own for a key (that value is then the one used, and both are secret).
const deploymentNames = new Set<string>();
const deploymentValues = new Set<string>();
let sortedNames: readonly string[] | undefined; // secretVariableNames(), until the deployment secret changes it

/**
 * Records the deployment secret (every key and value) as secret for the rest of the process.
 *
 * @example
 * rememberDeploymentSecret({ TELEGRAM_BOT_TOKEN: '123:abc…', MY_EXTRA_KEY: 's3cret…' });
 * secretVariableNames().includes('MY_EXTRA_KEY') // true
 */
export function rememberDeploymentSecret(secret: Readonly<Record<string, string>>): void {
  sortedNames = undefined;
  valuesThisTick = undefined;
  for (const [name, value] of Object.entries(secret)) {
    deploymentNames.add(name);
    if (value !== '') deploymentValues.add(value);
  }
}

/** Every variable name known to be secret: the fixed list plus the deployment secret's keys, sorted. */
export function secretVariableNames(): readonly string[] {
  sortedNames ??= Object.freeze([...new Set([...SECRET_VARIABLES, ...deploymentNames])].sort());
  return sortedNames;
}

/**
 * The secret values this process knows: the values of the secret variables in `env`, plus
 * the deployment secret's values. Empty values are left out.
 *
 * @example
 * knownSecretValues({ HOOKGATE_API_TOKEN: 't0ken-value' }) // ['t0ken-value', …deployment values]
 */
export function knownSecretValues(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  if (env !== process.env) return readSecretValues(env);
  // Each read of process.env is a call into the runtime (~0.3 µs; ~6 µs for the whole list),
  // and a log line redacts every one of its strings: read once per synchronous run (one line,
  // one serialised record) and again after the next microtask, so a change is seen at once.
  if (!valuesThisTick) {
    valuesThisTick = readSecretValues(env);
    queueMicrotask(() => {
      valuesThisTick = undefined;
    });
  }
  return valuesThisTick;
}

let valuesThisTick: readonly string[] | undefined;

function readSecretValues(env: NodeJS.ProcessEnv): readonly string[] {
  const values = new Set(deploymentValues);
  for (const name of SECRET_VARIABLES) {
    const value = env[name];
    if (value) values.add(value);
  }
  for (const name of deploymentNames) {
    const value = env[name];
    if (value) values.add(value);
  }
  return [...values];
}
