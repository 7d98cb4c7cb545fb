import { spawn } from 'node:child_process';
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

const REPO = fileURLToPath(new URL('..', import.meta.url));

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
}

export interface ColdImportResult {
  /** Median ms to import the gateway bundle (its top-level await included) in a fresh process. */
  value: number;
  /** Median ms to import the bare bundle (hono + hono/aws-lambda + DynamoDB and SQS clients). */
  baselineValue: number;
  gateway: { p50: number; p99: number; n: number };
  baseline: { p50: number; p99: number; n: number };
  /** Bytes each cold start loads: index.mjs and the chunks it imports statically. */
  bytes: { gateway: number; baseline: number };
  sdk: 'bundled' | 'external';
  enableSourceMaps: boolean;
}

/**
 * The `cold-import` figure: how long a fresh Node process takes to import the gateway λ's
 * bundle — built with the esbuild options of infra/lib/function-bundling.ts, code-split as the
 * stack ships it, and run through
 * its whole cold start (configuration, data plane, engine, the deployment secret from a
 * stand-in Secrets Manager, the gateway:startup claim in DynamoDB) against the local
 * emulators — against a bare bundle of hono + `hono/aws-lambda` + the DynamoDB and SQS
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
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      AWS_REGION: aws.region,
      AWS_ACCESS_KEY_ID: aws.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: aws.credentials.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: aws.dynamodbEndpoint,
      AWS_ENDPOINT_URL_SQS: aws.sqsEndpoint,
      AWS_ENDPOINT_URL_SNS: aws.snsEndpoint,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${(secrets.address() as AddressInfo).port}`,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      [RESOURCE_ENV.tableName]: aws.tableName,
      [RESOURCE_ENV.turnsQueueUrl]: aws.turnsQueueUrl,
      [RESOURCE_ENV.timersQueueUrl]: aws.timersQueueUrl,
      [RESOURCE_ENV.eventsTopicArn]: aws.eventsTopicArn,
      [RESOURCE_ENV.payloadBucket]: aws.payloadBucket,
      [RESOURCE_ENV.secretArn]: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:hookgate-bench',
      [RESOURCE_ENV.replySecretArn]: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:hookgate-bench-reply',
      [RESOURCE_ENV.deploymentVersion]: 'cold-import-bench',
    };
    // The first cold start of a version claims gateway:startup and publishes it; every later one
    // (the usual case, and what is timed) finds the claim taken.
    await timeImport(outputs.gateway, env, nodeArgs);
    const times = { gateway: [] as number[], baseline: [] as number[] };
    for (let i = 0; i < samples; i++) {
      times.gateway.push(await timeImport(outputs.gateway, env, nodeArgs));
      times.baseline.push(await timeImport(outputs.baseline, env, nodeArgs));
    }
    const gateway = summarise(times.gateway);
    const baseline = summarise(times.baseline);
    return {
      value: gateway.p50,
      baselineValue: baseline.p50,
      gateway: { p50: gateway.p50, p99: gateway.p99, n: gateway.n },
      baseline: { p50: baseline.p50, p99: baseline.p99, n: baseline.n },
      bytes,
      sdk,
      enableSourceMaps,
    };
  } finally {
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

/** Milliseconds a fresh `node` takes to import `file` (its top-level await included). */
function timeImport(file: string, env: NodeJS.ProcessEnv, nodeArgs: string[]): Promise<number> {
  // The figure goes out on fd 3: the bundle's own logs are on stdout.
  const script =
    "const { writeSync } = await import('node:fs'); const t0 = performance.now(); await import(process.env.COLD_IMPORT_URL);" +
    ' writeSync(3, JSON.stringify(performance.now() - t0)); process.exit(0);';
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, '--input-type=module', '-e', script], {
      env: { ...env, COLD_IMPORT_URL: pathToFileURL(file).href },
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdio[3]!.on('data', (d: Buffer) => (out += d));
    child.stderr!.on('data', (d: Buffer) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(out);
      if (code === 0 && Number.isFinite(ms)) resolve(ms);
      else reject(new Error(`importing ${file} failed (exit ${code}): ${err.trim().slice(-2000)}`));
    });
  });
}

/** Answers GetSecretValue with an empty JSON object, as the deployment secret starts out. */
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
                SecretString: '{}',
              }
            : { __type: 'InvalidRequestException', message: 'only GetSecretValue here' },
        ),
      );
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// `npx tsx bench/cold-import.ts [infra|bundled|external] [one-file] [split-baseline] [--enable-source-maps]`: one figure.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sdk = (['bundled', 'external'] as const).find((s) => process.argv.includes(s)) ?? 'infra';
  const prof = process.argv.find((a) => a.startsWith('--cpu-prof-dir='));
  const r = await measureColdImport({
    sdk,
    enableSourceMaps: process.argv.includes('--enable-source-maps'),
    oneFile: process.argv.includes('one-file'),
    splitBaseline: process.argv.includes('split-baseline'),
    ...(prof ? { nodeArgs: ['--cpu-prof', prof], samples: 3 } : {}),
  });
  console.log(
    `cold-import (sdk ${r.sdk}${r.enableSourceMaps ? ', --enable-source-maps' : ''}): gateway p50 ${r.value.toFixed(1)} ms` +
      ` (p99 ${r.gateway.p99.toFixed(1)}, ${r.bytes.gateway} B) vs bare ${r.baselineValue.toFixed(1)} ms` +
      ` (p99 ${r.baseline.p99.toFixed(1)}, ${r.bytes.baseline} B) → ${(r.value / r.baselineValue).toFixed(2)}x`,
  );
}
