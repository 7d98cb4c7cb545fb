import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDeploymentConfig } from '../../src/config/deployment-config.ts';
import { mountConsoleWhenEnabled } from '../../src/console/mount-lambda-console.ts';
import { createRuntime } from '../../src/runtime/create-runtime.ts';
import { createGatewayFunction } from '../../src/runtime/gateway-function.ts';
import { onEmulators } from '../runtime/support/on-emulators.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { createDataPlane, dataPlaneFromLocalAws } from '../../src/pipeline/data-plane.ts';
import { RESOURCE_ENV } from '../../src/pipeline/resource-env.ts';
import { DynamoTraceStore } from '../../src/store/trace-store.ts';
import { recordingEngine } from '../gateway/support/recording-engine.ts';
import { startFakePlatforms, type FakePlatforms } from '../support/fake-platforms/fake-platform-server.ts';
import { startTestAws } from '../support/local-aws.ts';
import { chromiumFor, launchHeadlessChromium } from '../support/headless-chromium.ts';
import { until } from '../support/until.ts';

const available = chromiumFor('console-aws-browser.test.ts');

const TOKEN = 'aws-console-browser-token-42';
let aws: RunningEmulators;
let fake: FakePlatforms;
let server: ServerType | undefined;
let browser: BrowserContext | undefined;
let root: string;
let url: string;

beforeAll(async () => {
  if (!available) return;
  root = await mkdtemp(join(tmpdir(), 'hookgate-console-aws-'));
  aws = await startTestAws();
  fake = await startFakePlatforms();
  // A turn with a reply Telegram refused, as the turn function would have recorded it.
  const plane = createDataPlane(dataPlaneFromLocalAws(aws));
  const at = new Date().toISOString();
  await new DynamoTraceStore(plane.table).append(
    [
      {
        turn_id: 'turn-b-1',
        at,
        hook: 'pre_llm_call',
        source: 'plugin',
        callback: 'audit_call',
        decision: 'allow',
        duration_ms: 2,
      },
      {
        turn_id: 'turn-b-1',
        at,
        hook: 'reply',
        source: 'platform',
        callback: 'telegram:99',
        decision: 'undelivered: telegram reply failed: HTTP 502',
        duration_ms: 0,
        text: 'a reply from the past',
        reply_to: { platform: 'telegram', chat_id: '99', thread_id: '' },
      },
    ],
    'session-b-1',
  );
  plane.destroy();
  // The gateway λ's app in AWS mode, served over HTTP for the browser (Lambda would sit behind a Function URL).
  const env = {
    AWS_LAMBDA_FUNCTION_NAME: 'gateway',
    [RESOURCE_ENV.deploymentVersion]: 'browser',
    HOOKGATE_CONSOLE: '1',
    HOOKGATE_API_TOKEN: TOKEN,
    HOOKGATE_HOME: root,
    TELEGRAM_BOT_TOKEN: '1:browser',
    TELEGRAM_SECRET_TOKEN: 'sekret',
    TELEGRAM_API_BASE_URL: `${fake.url}/telegram`,
    HOOKGATE_LOG_LEVEL: 'silent',
    [RESOURCE_ENV.eventsDlqUrl]: aws.eventsDlqUrl,
    [RESOURCE_ENV.eventsQueueUrl]: aws.eventsQueueUrl,
  };
  const runtime = createRuntime(onEmulators(loadDeploymentConfig(env, { runtime: 'aws' }), aws), {
    createEngine: () => recordingEngine(),
    engineOptions: { home: root },
  });
  const { app } = await createGatewayFunction(runtime, { mount: mountConsoleWhenEnabled });
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchHeadlessChromium(join(root, 'chromium-profile'));
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await fake?.close();
  await aws?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe.skipIf(!available)('the AWS console in a real browser', () => {
  it('asks for the token once, keeps it in sessionStorage only, and shows the deployment', { timeout: 90_000 }, async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${url}/console`);
    await page.locator('#token-gate').waitFor({ state: 'visible', timeout: 30_000 });
    expect(await page.locator('#panels').isVisible()).toBe(false);
    expect(await page.locator('#chat-form').count()).toBe(0); // the chat box is dev-only

    // A wrong token: refused, asked again, not kept.
    await page.fill('#token-form input[name=token]', 'not-the-token-at-all');
    await page.press('#token-form input[name=token]', 'Enter');
    await page.locator('#token-status', { hasText: 'refused' }).waitFor({ timeout: 30_000 });
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }).sessionStorage.getItem(
          'hookgate-console-token',
        ),
      ),
    ).toBeNull();

    await page.fill('#token-form input[name=token]', TOKEN);
    await page.press('#token-form input[name=token]', 'Enter');
    await page.locator('#sessions a', { hasText: 'turn-b-1' }).waitFor({ timeout: 30_000 });
    await page.locator('#sessions a', { hasText: 'turn-b-1' }).click();
    await page.locator('#timeline tbody tr', { hasText: 'audit_call' }).waitFor({ timeout: 30_000 });
    const reply = page.locator('#undelivered .reply', { hasText: 'telegram chat 99' });
    await reply.waitFor({ timeout: 30_000 });
    expect(await reply.innerText()).toContain('a reply from the past');

    // The token lives in this tab's sessionStorage: not in the URL, not in a cookie.
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }).sessionStorage.getItem(
          'hookgate-console-token',
        ),
      ),
    ).toBe(TOKEN);
    expect(page.url()).not.toContain(TOKEN);
    expect(await browser!.cookies()).toEqual([]);

    // Retry through the gateway's replier: the fake Telegram gets it, the panel says delivered.
    await reply.getByRole('button', { name: 'retry' }).click();
    await page.locator('#undelivered .reply', { hasText: 'delivered on retry' }).waitFor({ timeout: 30_000 });
    await until(() => fake.received('/telegram/').length === 1, 'the retried reply at the fake Telegram');

    // A reload keeps the token (same tab); "forget token" drops it.
    await page.reload();
    await page.locator('#sessions a', { hasText: 'turn-b-1' }).waitFor({ timeout: 30_000 });
    await page.click('#sign-out');
    await page.locator('#token-gate').waitFor({ state: 'visible' });
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }).sessionStorage.getItem(
          'hookgate-console-token',
        ),
      ),
    ).toBeNull();
    expect(errors).toEqual([]);
  });
});
