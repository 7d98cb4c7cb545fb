import { mkdtemp, readFile, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, RemovalPolicy } from 'aws-cdk-lib';
import { HookgateStack } from '../../infra/lib/hookgate-stack.ts';
import { prepareHooksBundle, HooksHomeBuildError } from '../../infra/lib/hooks-bundle.ts';
import { BUNDLED_HOME_DIR } from '../../infra/lib/function-bundling.ts';
import { createHookEngine, type RegistryListing } from '../../src/hooks/create-hook-engine.ts';
import { RESOURCE_ENV } from '../../src/pipeline/resource-env.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { startTestAws } from '../support/local-aws.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLES_HOME = join(REPO, 'examples');
const MiB = 1024 * 1024;

/**
 * Builds the three real function assets from the examples' hooks home with the stack's own
 * bundling (local esbuild through NodejsFunction), then inspects and imports them.
 */
describe('function bundles', () => {
  let buildDir: string;
  let assets: Record<'gateway' | 'turn' | 'observer', string>;
  let aws: RunningEmulators;

  beforeAll(async () => {
    // Inside the repo, so the bundles' external @aws-sdk imports resolve from node_modules.
    await mkdir(join(REPO, '.hookgate-build'), { recursive: true });
    buildDir = await mkdtemp(join(REPO, '.hookgate-build', 'test-'));
    const hooksBundle = await prepareHooksBundle(EXAMPLES_HOME, { buildDir: join(buildDir, 'entries') });
    const app = new App({ outdir: join(buildDir, 'cdk.out') });
    const stack = new HookgateStack(app, 'bundle-test', {
      dataRemovalPolicy: RemovalPolicy.DESTROY,
      telemetrySubscribers: [],
      hooksBundle,
    });
    const assembly = app.synth();
    const template = assembly.getStackByName(stack.stackName).template as { Resources: Record<string, any> };
    const assetOf = (fragment: string) => {
      const [, fn] = Object.entries(template.Resources).find(
        ([id, r]) => r.Type === 'AWS::Lambda::Function' && id.includes(fragment),
      )!;
      const key = String(fn.Properties.Code.S3Key).replace(/\.zip$/, '');
      return join(buildDir, 'cdk.out', `asset.${key}`);
    };
    assets = { gateway: assetOf('gatewayfn'), turn: assetOf('turnfn'), observer: assetOf('observerfn') };
    aws = await startTestAws();
  }, 180_000);

  afterAll(async () => {
    await aws?.stop();
    if (buildDir) await rm(buildDir, { recursive: true, force: true });
  });

  it('keeps the gateway bundle within 1.5 MB and every bundle within 2 MB, ESM with a source map', async () => {
    const sizes: Record<string, number> = {};
    for (const [name, dir] of Object.entries(assets)) {
      const files = await readdir(dir);
      expect(files).toEqual(expect.arrayContaining(['index.mjs', 'index.mjs.map', BUNDLED_HOME_DIR]));
      sizes[name] = (await stat(join(dir, 'index.mjs'))).size;
    }
    console.log('bundle sizes (bytes):', sizes);
    // The AWS SDK is bundled (docs/performance.md#cold-start): ~0.7 MB of the gateway's 1.1 MB.
    expect(sizes.gateway).toBeLessThanOrEqual(1.5 * MiB);
    for (const size of Object.values(sizes)) expect(size).toBeLessThanOrEqual(2 * MiB);
    const head = await readFile(join(assets.gateway, 'index.mjs'), 'utf8');
    expect(head).not.toMatch(/from\s*["']tsx/); // tsx is only for loading .ts from disk
  });

  it('copies the hooks home into the asset, shell scripts keeping their exec bits', async () => {
    const home = join(assets.gateway, BUNDLED_HOME_DIR);
    expect((await stat(join(home, 'config.yaml'))).isFile()).toBe(true);
    const scripts = (await readdir(join(EXAMPLES_HOME, 'agent-hooks'))).filter((f) => f.endsWith('.sh'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const [source, copy] = await Promise.all([
        stat(join(EXAMPLES_HOME, 'agent-hooks', script)),
        stat(join(home, 'agent-hooks', script)),
      ]);
      expect(copy.mode & 0o777).toBe(source.mode & 0o777);
      expect(copy.mode & 0o100).toBe(0o100);
    }
  });

  it('registers from the bundle exactly what loading the same home from disk registers', async () => {
    // The function modules build their dependencies at import: give them the emulators.
    Object.assign(process.env, {
      [RESOURCE_ENV.tableName]: aws.tableName,
      [RESOURCE_ENV.turnsQueueUrl]: aws.turnsQueueUrl,
      [RESOURCE_ENV.timersQueueUrl]: aws.timersQueueUrl,
      [RESOURCE_ENV.eventsTopicArn]: aws.eventsTopicArn,
      [RESOURCE_ENV.payloadBucket]: aws.payloadBucket,
      AWS_REGION: aws.region,
      AWS_ACCESS_KEY_ID: aws.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: aws.credentials.secretAccessKey,
      AWS_ENDPOINT_URL_SQS: aws.sqsEndpoint,
      AWS_ENDPOINT_URL_SNS: aws.snsEndpoint,
      AWS_ENDPOINT_URL_S3: aws.s3Endpoint,
      AWS_ENDPOINT_URL_DYNAMODB: aws.dynamodbEndpoint,
      HOOKGATE_HOME: EXAMPLES_HOME,
    });
    const disk = await createHookEngine({ home: EXAMPLES_HOME, gatewayHooks: true, print: () => {} });
    const fromDisk: RegistryListing = disk.describeRegistry();
    await disk.close();
    expect(Object.keys(fromDisk.callbacks).length).toBeGreaterThan(0);
    expect(fromDisk.gatewayHooks.length).toBeGreaterThan(0);
    for (const dir of Object.values(assets)) {
      const bundle = (await import(pathToFileURL(join(dir, 'index.mjs')).href)) as {
        handler: unknown;
        describeBundledRegistry: (home: string) => Promise<RegistryListing>;
      };
      expect(typeof bundle.handler).toBe('function');
      expect(await bundle.describeBundledRegistry(EXAMPLES_HOME)).toEqual(fromDisk);
    }
  }, 120_000); // three ~1 MB bundles imported and started in this process: slow on a loaded machine

  it('fails the build on a bad HOOK.yaml, naming the file', async () => {
    const home = await mkdtemp(join(buildDir, 'bad-home-'));
    await mkdir(join(home, 'hooks', 'broken'), { recursive: true });
    await writeFile(join(home, 'hooks', 'broken', 'HOOK.yaml'), 'events: agent:start\n');
    await writeFile(join(home, 'hooks', 'broken', 'handler.mjs'), 'export function handle() {}\n');
    const attempt = prepareHooksBundle(home, { buildDir: join(buildDir, 'bad-entries') });
    await expect(attempt).rejects.toBeInstanceOf(HooksHomeBuildError);
    await expect(attempt).rejects.toThrow(join(home, 'hooks', 'broken', 'HOOK.yaml'));
  });
});
