import { createTurnConsumer } from '../../../src/runtime/turn-consumer.ts';
import { recordHookRun } from '../../../src/agent/trace/hook-run-scope.ts';
import { createHookEngine } from '../../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../../src/hooks/hook-logger.ts';
import { startDevRuntime, type DevRuntime } from '../../../src/local/dev-runtime.ts';
import { startFakeModelServer, type FakeModelServer } from '../../support/fake-model-server.ts';
import { startFakePlatforms, type FakePlatforms } from '../../support/fake-platforms/fake-platform-server.ts';
import { discordHeaders, discordKeys, slackHeaders, whatsAppHeaders } from '../../support/fake-platforms/signed-requests.ts';
import { tempHome, type TempHome } from '../../hooks/support/temp-home.ts';
import { createDataPlane, dataPlaneFromLocalAws, type DataPlane } from '../../../src/pipeline/data-plane.ts';

export const TELEGRAM_TOKEN = '123:pipeline';
export const SLACK_BOT_TOKEN = 'xoxb-pipeline';
export const WHATSAPP_ACCESS_TOKEN = 'wa-pipeline-token';
export const DISCORD_APPLICATION_ID = '999';

/**
 * The whole pipeline on one machine, as `hookgate dev` runs it: every platform on, its API at
 * the fake platform server, the model at the fake model server, the gateway on 127.0.0.1, the
 * turn consumer behind the local SQS poller, the payload bucket on the S3 emulator.
 */
export interface Pipeline {
  dev: DevRuntime;
  fake: FakePlatforms;
  model: FakeModelServer;
  home: TempHome;
  /** A data plane of the test's own on the dev's emulators (traces, the payload bucket). */
  plane: DataPlane;
  /** Posts a signed webhook for `platform` (Teams: a Bot Framework token for the activity's serviceUrl). */
  post(platform: 'telegram' | 'slack' | 'discord' | 'whatsapp' | 'teams' | 'local', body: string): Promise<Response>;
  close(): Promise<void>;
}

export async function startPipeline(
  files: Record<string, string>,
  options: { env?: NodeJS.ProcessEnv; acceptHooks?: boolean; prepare?: (homePath: string) => Promise<void> } = {},
): Promise<Pipeline> {
  const fake = await startFakePlatforms();
  const model = await startFakeModelServer();
  const home = await tempHome(files);
  await options.prepare?.(home.path);
  const keys = discordKeys();
  const env: NodeJS.ProcessEnv = {
    // The suite's level (vitest.config.ts): the runs' info lines are not the tests' output.
    HOOKGATE_LOG_LEVEL: process.env.HOOKGATE_LOG_LEVEL,
    HOOKGATE_HOME: home.path,
    HOOKGATE_MODEL: 'fake-model',
    HOOKGATE_MODEL_BASE_URL: model.baseUrl,
    HOOKGATE_REPLY_BACKOFF_MS: '1',
    TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN,
    TELEGRAM_SECRET_TOKEN: 'tg-secret',
    TELEGRAM_API_BASE_URL: `${fake.url}/telegram`,
    SLACK_SIGNING_SECRET: 'slack-secret',
    SLACK_BOT_TOKEN,
    SLACK_API_BASE_URL: `${fake.url}/slack`,
    DISCORD_PUBLIC_KEY: keys.publicKeyHex,
    DISCORD_APPLICATION_ID,
    DISCORD_API_BASE_URL: `${fake.url}/discord`,
    WHATSAPP_APP_SECRET: 'wa-secret',
    WHATSAPP_VERIFY_TOKEN: 'wa-verify',
    WHATSAPP_ACCESS_TOKEN,
    WHATSAPP_PHONE_NUMBER_ID: '555',
    WHATSAPP_API_BASE_URL: `${fake.url}/whatsapp`,
    TEAMS_APP_ID: 'teams-app-id',
    TEAMS_APP_PASSWORD: 'teams-password',
    TEAMS_OPENID_METADATA_URL: `${fake.url}/teams/openid`,
    TEAMS_TOKEN_URL: `${fake.url}/teams/token`,
    ...options.env,
  };
  const dev = await startDevRuntime({
    home: home.path,
    port: 0,
    env,
    acceptHooks: options.acceptHooks ?? false,
    print: () => {},
    console: true,
    createEngine: (options) =>
      createHookEngine({ ...options, onRun: recordHookRun, print: () => {}, logger: createMemoryLogger() }),
    createTurnConsumer: (context) => createTurnConsumer(context),
  });
  const post: Pipeline['post'] = async (platform, body) => {
    const headers: Record<string, string> =
      platform === 'telegram'
        ? { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'tg-secret' }
        : platform === 'slack'
          ? slackHeaders('slack-secret', body)
          : platform === 'discord'
            ? discordHeaders(keys, body)
            : platform === 'whatsapp'
              ? whatsAppHeaders('wa-secret', body)
              : platform === 'teams'
                ? {
                    'content-type': 'application/json',
                    authorization: `Bearer ${await fake.teamsToken({ serviceUrl: (JSON.parse(body) as { serviceUrl: string }).serviceUrl })}`,
                  }
                : { 'content-type': 'application/json' };
    return fetch(`${dev.url}/webhooks/${platform}`, { method: 'POST', headers, body });
  };
  const plane = createDataPlane(dataPlaneFromLocalAws(dev.aws));
  return {
    dev,
    fake,
    model,
    home,
    plane,
    post,
    async close() {
      plane.destroy();
      await dev.stop();
      await model.close();
      await fake.close();
      await home.remove();
    },
  };
}
