import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { CHUNKS_DIR, functionBundling } from '../infra/lib/function-bundling.ts';
import { esbuildOptionsOf } from '../infra/lib/esbuild-options.ts';
import { startEmulators, type RunningEmulators } from '../src/local/emulators.ts';
import { RESOURCE_ENV } from '../src/pipeline/resource-env.ts';
import { summarise } from './harness.ts';
import { startTlsFronts, type TlsFronts } from './support/tls-fronts.ts';
import { slackHeaders } from '../test/support/fake-platforms/signed-requests.ts';
import { stackResourceEnv } from '../test/support/stack-resource-env.ts';

/**
 * The deployment secret the stand-in Secrets Manager answers: Slack and Discord enabled, the two
 * platforms whose 3-second window the first request must fit, so that the cold start loads
 * their adapters as a deployment with them does (the other platforms stay off).
 */
const DEPLOYMENT_SECRET = {
  SLACK_SIGNING_SECRET: 'cold-import-signing-secret',
  SLACK_BOT_TOKEN: 'xoxb-cold-import',
  DISCORD_PUBLIC_KEY: 'ab'.repeat(32),
  DISCORD_APPLICATION_ID: '42',
};

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** Untimed cold starts of each bundle before the timed ones. */
const WARM_UP_ROUNDS = 2;

export interface ColdImportOptions {
  /** Fresh processes per bundle (alternating gateway and baseline); default 15. */
  samples?: number;
  /**
   * Where the AWS SDK comes from: `infra` (as infra/lib/function-bundling.ts decides), `bundled`
   * (compiled into the bundle at the lockfile's version) or `external` (left out: resolved at run
   * time, here from node_modules, in Lambda from the runtime's copy). Default `infra`.
   */
  sdk?: 'infra' | 'bundled' | 'external';
  /** Run the children with `--enable-source-maps` (default false: what the stack sets). */
  enableSourceMaps?: boolean;
  /** Build the gateway as one file, as before the stack code-split it (default false). */
  oneFile?: boolean;
  /** Code-split the bare bundle too (default false: one file, as a plain NodejsFunction builds it). */
  splitBaseline?: boolean;
  /** Extra `node` flags for the children, e.g. `['--cpu-prof', '--cpu-prof-dir=/tmp/prof']` to see where the time goes. */
  nodeArgs?: string[];
  /** The gateway entry to build instead of functions/gateway.ts (to time a part of its cold start). */
  entry?: string;
  /**
   * How the children reach the emulators: `https` (default: through TLS fronts, as every AWS
   * endpoint is reached; bench/support/tls-fronts.ts) or `http` (the emulators' own endpoints,
   * which make the SDK load `node:http`, as it never does in AWS).
   */
  transport?: 'https' | 'http';
}

export interface ColdImportResult {
  /** Median ms to import the gateway bundle (its top-level await included) in a fresh process. */
  value: number;
  /** Median ms to import the bare bundle (hono + hono/aws-lambda + DynamoDB and SQS clients). */
  baselineValue: number;
  gateway: { p50: number; p99: number; n: number };
  baseline: { p50: number; p99: number; n: number };
  /**
   * Median ms from the start of the import to the answer of the first webhook (a signed Slack
   * message event from an allowed user, as a Function URL delivers it; the gateway dedups and
   * enqueues it): what Slack's and Discord's 3-second window sees of a cold gateway. The bare
   * handler answers the same event with its put and send.
   */
  firstRequest: { gateway: { p50: number; p99: number }; baseline: { p50: number; p99: number } };
  /** Bytes each cold start loads: index.mjs and the chunks it imports statically. */
  bytes: { gateway: number; baseline: number };
  sdk: 'bundled' | 'external';
  enableSourceMaps: boolean;
  transport: 'https' | 'http';
}

/**
 * The `cold-import` figure: how long a fresh Node process takes to import the gateway λ's
 * bundle — built with the esbuild options of infra/lib/function-bundling.ts, code-split as the
 * stack ships it, and run through
 * its whole cold start (configuration, data plane, engine, the deployment secret from a
 * stand-in Secrets Manager, the gateway:startup claim in DynamoDB) against the local
 * emulators, reached over https as AWS's endpoints are (bench/support/tls-fronts.ts) — against a bare bundle of hono + `hono/aws-lambda` + the DynamoDB and SQS
 * clients (bench/support/bare-lambda-entry.ts) built with the same options in one file (as a plain
 * NodejsFunction builds it), in alternating fresh
 * processes of the same run. The import is timed inside the child (Node's own start-up,
 * the same for both, is left out). Goal: value / baselineValue ≤ 1.5.
 *
 * @example
 * const { value, baselineValue } = await measureColdImport();
 * console.log(`cold-import ${(value / baselineValue).toFixed(2)}x`);
 */
export async function measureColdImport(options: ColdImportOptions = {}): Promise<ColdImportResult> {
  const samples = options.samples ?? 15;
  const enableSourceMaps = options.enableSourceMaps ?? false;
  const nodeArgs = [...(enableSourceMaps ? ['--enable-source-maps'] : []), ...(options.nodeArgs ?? [])];
  const dir = await mkdtemp(join(tmpdir(), 'hookgate-cold-import-'));
  // Externals (the SDK when it is left out) resolve from the repository's node_modules.
  await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  let aws: RunningEmulators | undefined;
  let secrets: Server | undefined;
  let tls: TlsFronts | undefined;
  const transport = options.transport ?? 'https';
  try {
    const { options: esbuildOptions, sdk } = gatewayEsbuildOptions(options.sdk ?? 'infra');
    const outputs = { gateway: join(dir, 'gateway', 'index.mjs'), baseline: join(dir, 'baseline', 'index.mjs') };
    const bytes = { gateway: 0, baseline: 0 };
    for (const [name, entry] of [
      ['gateway', options.entry ?? join(REPO, 'functions', 'gateway.ts')],
      ['baseline', join(REPO, 'bench', 'support', 'bare-lambda-entry.ts')],
    ] as const) {
      // The gateway code-split into index.mjs + chunks/, as the stack ships it (function-bundling.ts);
      // the bare handler in one file, as a plain NodejsFunction builds it. (Split too, the bare
      // bundle imports faster still: docs/performance.md#cold-start has both figures.)
      const split = name === 'gateway' ? !options.oneFile : options.splitBaseline === true;
      const result = await build({
        ...esbuildOptions,
        entryPoints: { index: entry },
        outdir: join(dir, name),
        ...(split ? { splitting: true, chunkNames: `${CHUNKS_DIR}/[name]-[hash]` } : {}),
        outExtension: { '.js': '.mjs' },
        metafile: true,
      });
      const index = Object.keys(result.metafile.outputs).find((f) => f.endsWith('/index.mjs'))!;
      bytes[name] = startupBytes(result.metafile.outputs, index);
    }

    aws = await startEmulators();
    secrets = await startSecretsManagerStandIn();
    const secretsEndpoint = `http://127.0.0.1:${(secrets.address() as AddressInfo).port}`;
    if (transport === 'https') tls = await startTlsFronts(dir);
    const endpoint = (url: string) => (tls ? tls.front(url) : Promise.resolve(url));
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      // Lambda sets no HOME and makes no home directory, so a function deployed without a hooks
      // home finds none on disk; this machine's ~/.hermes (os.homedir() without HOME) must not
      // stand in for it.
      HOME: join(dir, 'no-home'),
      ...(tls ? { NODE_EXTRA_CA_CERTS: tls.caFile } : {}),
      AWS_REGION: aws.region,
      AWS_ACCESS_KEY_ID: aws.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: aws.credentials.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: await endpoint(aws.dynamodbEndpoint),
      AWS_ENDPOINT_URL_SQS: await endpoint(aws.sqsEndpoint),
      AWS_ENDPOINT_URL_SNS: await endpoint(aws.snsEndpoint),
      AWS_ENDPOINT_URL_SECRETS_MANAGER: await endpoint(secretsEndpoint),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...stackResourceEnv(aws),
      [RESOURCE_ENV.secretArn]: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:hookgate-bench',
      [RESOURCE_ENV.replySecretArn]: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:hookgate-bench-reply',
      [RESOURCE_ENV.deploymentVersion]: 'cold-import-bench',
      // The webhook's sender may talk to the bot: its first request takes the path every chat
      // message takes (dedup, enqueue), not the refusal that answers a stranger on Slack.
      HOOKGATE_ALLOWED_USERS: 'slack:U1',
    };
    // The first cold start of a version claims gateway:startup and publishes it; every later one
    // (the usual case, and what is timed) finds the claim taken. The untimed rounds also warm this
    // process, which stands in for AWS's endpoints (always-warm servers): the emulators' and the
    // TLS fronts' code is compiled before the first timed child needs it.
    for (let i = 0; i < WARM_UP_ROUNDS; i++) {
      await timeColdStart(outputs.gateway, env, nodeArgs);
      await timeColdStart(outputs.baseline, env, nodeArgs);
    }
    const times = { gateway: [] as ColdStartTimes[], baseline: [] as ColdStartTimes[] };
    for (let i = 0; i < samples; i++) {
      times.gateway.push(await timeColdStart(outputs.gateway, env, nodeArgs));
      times.baseline.push(await timeColdStart(outputs.baseline, env, nodeArgs));
    }
    if (tls && tls.connections() === 0) throw new Error('no cold start connected through the TLS fronts');
    const gateway = summarise(times.gateway.map((t) => t.importMs));
    const baseline = summarise(times.baseline.map((t) => t.importMs));
    const firstOf = (runs: ColdStartTimes[]) => {
      const { p50, p99 } = summarise(runs.map((t) => t.importMs + t.firstRequestMs));
      return { p50, p99 };
    };
    return {
      value: gateway.p50,
      baselineValue: baseline.p50,
      gateway: { p50: gateway.p50, p99: gateway.p99, n: gateway.n },
      baseline: { p50: baseline.p50, p99: baseline.p99, n: baseline.n },
      firstRequest: { gateway: firstOf(times.gateway), baseline: firstOf(times.baseline) },
      bytes,
      sdk,
      enableSourceMaps,
      transport,
    };
  } finally {
    await tls?.close();
    secrets?.close();
    await aws?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The stack's esbuild options for the gateway, read from infra/lib/function-bundling.ts. */
function gatewayEsbuildOptions(sdk: 'infra' | 'bundled' | 'external'): { options: BuildOptions; sdk: 'bundled' | 'external' } {
  const { bundling } = functionBundling({ repoRoot: REPO, functionName: 'gateway' });
  if (!bundling) throw new Error('functionBundling returned no bundling options');
  const options = esbuildOptionsOf(bundling);
  const infraExternal = options.external ?? [];
  const sdkExternal = sdk === 'infra' ? infraExternal.includes('@aws-sdk/*') : sdk === 'external';
  const external = infraExternal.filter((m) => m !== '@aws-sdk/*').concat(sdkExternal ? ['@aws-sdk/*'] : []);
  return { sdk: sdkExternal ? 'external' : 'bundled', options: { ...options, external } };
}

/**
 * The bytes a cold start loads: `index.mjs` and the chunks it imports statically, transitively
 * (what a dynamic `import()` reaches loads later, if ever).
 */
function startupBytes(outputs: Metafile['outputs'], entry: string): number {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of outputs[file]?.imports ?? [])
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(entry);
  return [...seen].reduce((sum, file) => sum + (outputs[file]?.bytes ?? 0), 0);
}

interface ColdStartTimes {
  /** Importing the bundle, its top-level await included (Lambda's init phase). */
  importMs: number;
  /** Then answering the first webhook through the exported handler (the first invoke). */
  firstRequestMs: number;
}

/**
 * A signed Slack message event as a Function URL delivers it (payload format 2.0), new each
 * time: its event id and delivery id are fresh, so no run answers from dedup.
 */
function firstWebhookEvent(): unknown {
  const id = randomUUID();
  const body = JSON.stringify({
    token: 'unused',
    team_id: 'T1',
    api_app_id: 'A1',
    event: { type: 'message', channel: 'C1', user: 'U1', text: 'hello', ts: '1355517523.000005', channel_type: 'im' },
    type: 'event_callback',
    event_id: `Ev${id}`,
    event_time: 1355517523,
  });
  const headers = { ...slackHeaders(DEPLOYMENT_SECRET.SLACK_SIGNING_SECRET, body), 'x-delivery-id': id };
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/webhooks/slack',
    rawQueryString: '',
    headers: { ...headers, host: 'gateway.lambda-url.us-east-1.on.aws' },
    requestContext: {
      accountId: 'anonymous',
      apiId: 'gateway',
      domainName: 'gateway.lambda-url.us-east-1.on.aws',
      http: { method: 'POST', path: '/webhooks/slack', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'Slackbot' },
      requestId: id,
      routeKey: '$default',
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
    body,
    isBase64Encoded: false,
  };
}

/**
 * A fresh `node` imports `file` (its top-level await included), then its handler answers the
 * first webhook; both timed inside the child (Node's own start-up, the same for both bundles,
 * is left out). A non-2xx answer fails the run.
 */
function timeColdStart(file: string, env: NodeJS.ProcessEnv, nodeArgs: string[]): Promise<ColdStartTimes> {
  // The figures go out on fd 3: the bundle's own logs are on stdout.
  const script =
    "const { writeSync } = await import('node:fs'); const t0 = performance.now();" +
    ' const { handler } = await import(process.env.COLD_IMPORT_URL); const t1 = performance.now();' +
    ' const answer = await handler(JSON.parse(process.env.COLD_IMPORT_EVENT), {}); const t2 = performance.now();' +
    ' if (!(answer.statusCode >= 200 && answer.statusCode < 300)) { console.error(JSON.stringify(answer)); process.exit(3); }' +
    ' writeSync(3, JSON.stringify({ importMs: t1 - t0, firstRequestMs: t2 - t1 })); process.exit(0);';
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, '--input-type=module', '-e', script], {
      env: { ...env, COLD_IMPORT_URL: pathToFileURL(file).href, COLD_IMPORT_EVENT: JSON.stringify(firstWebhookEvent()) },
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdio[3]!.on('data', (d: Buffer) => (out += d));
    child.stderr!.on('data', (d: Buffer) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 && out !== '') resolve(JSON.parse(out) as ColdStartTimes);
      else reject(new Error(`cold start of ${file} failed (exit ${code}): ${err.trim().slice(-2000)}`));
    });
  });
}

/** Answers GetSecretValue with {@link DEPLOYMENT_SECRET}. */
function startSecretsManagerStandIn(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const ok = req.headers['x-amz-target'] === 'secretsmanager.GetSecretValue';
      res.writeHead(ok ? 200 : 400, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(
        JSON.stringify(
          ok
            ? {
                ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:hookgate-bench',
                Name: 'hookgate-bench',
                SecretString: JSON.stringify(DEPLOYMENT_SECRET),
              }
            : { __type: 'InvalidRequestException', message: 'only GetSecretValue here' },
        ),
      );
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// `npx tsx bench/cold-import.ts [infra|bundled|external] [one-file] [split-baseline] [http] [--enable-source-maps]`: one figure.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sdk = (['bundled', 'external'] as const).find((s) => process.argv.includes(s)) ?? 'infra';
  const prof = process.argv.find((a) => a.startsWith('--cpu-prof-dir='));
  const r = await measureColdImport({
    sdk,
    enableSourceMaps: process.argv.includes('--enable-source-maps'),
    oneFile: process.argv.includes('one-file'),
    splitBaseline: process.argv.includes('split-baseline'),
    transport: process.argv.includes('http') ? 'http' : 'https',
    ...(prof ? { nodeArgs: ['--cpu-prof', prof], samples: 3 } : {}),
  });
  console.log(
    `cold-import (sdk ${r.sdk}, ${r.transport}${r.enableSourceMaps ? ', --enable-source-maps' : ''}): gateway p50 ${r.value.toFixed(1)} ms` +
      ` (p99 ${r.gateway.p99.toFixed(1)}, ${r.bytes.gateway} B) vs bare ${r.baselineValue.toFixed(1)} ms` +
      ` (p99 ${r.baseline.p99.toFixed(1)}, ${r.bytes.baseline} B) → ${(r.value / r.baselineValue).toFixed(2)}x;` +
      ` import + first webhook p50 ${r.firstRequest.gateway.p50.toFixed(1)} vs ${r.firstRequest.baseline.p50.toFixed(1)} ms` +
      ` → ${(r.firstRequest.gateway.p50 / r.firstRequest.baseline.p50).toFixed(2)}x`,
  );
}
