import { describe, expect, it } from 'vitest';
import { isAllowed, parseAllowedUsers } from '../../src/config/allowed-users.ts';
import { ConfigError } from '../../src/config/config-error.ts';
import {
  enabledPlatforms,
  loadDeploymentConfig,
  loadDeploymentResources,
  loadModelConfig,
} from '../../src/config/deployment-config.ts';

describe('loadDeploymentConfig', () => {
  it('disables a platform whose variables are missing and says which', () => {
    const config = loadDeploymentConfig(
      { TELEGRAM_BOT_TOKEN: '1:a', SLACK_SIGNING_SECRET: 's', SLACK_BOT_TOKEN: 'b' },
      { runtime: 'aws' },
    );
    expect(enabledPlatforms(config)).toEqual(['slack']);
    expect(config.disabled.find((d) => d.platform === 'telegram')?.missing).toEqual(['TELEGRAM_SECRET_TOKEN']);
    expect(config.platforms.slack?.apiBaseUrl).toBe('https://slack.com/api');
  });

  it("knows each platform's reply credentials without its inbound secrets (the turn λ reads the reply secret alone)", () => {
    const env = {
      TELEGRAM_BOT_TOKEN: '1:a',
      SLACK_BOT_TOKEN: 'xoxb-1',
      DISCORD_APPLICATION_ID: '42',
      WHATSAPP_ACCESS_TOKEN: 'EAAB',
      WHATSAPP_PHONE_NUMBER_ID: '7',
      TEAMS_APP_ID: 'app',
      TEAMS_APP_PASSWORD: 'pw',
      HOOKGATE_TOOLS_FUNCTION_NAME: 'hookgate-ToolsFunction-abc',
      HOOKGATE_WORKSPACE_BUCKET: 'hookgate-workspaces-abc',
    };
    const config = loadDeploymentConfig(env, { runtime: 'aws' });
    // No inbound secret: the gateway would serve none but Teams (verified by Microsoft's public keys, not a secret).
    expect(enabledPlatforms(config)).toEqual(['teams']);
    expect(Object.keys(config.replyPlatforms).sort()).toEqual(['discord', 'slack', 'teams', 'telegram', 'whatsapp']);
    expect(config.replyPlatforms.telegram).toEqual({ botToken: '1:a', apiBaseUrl: 'https://api.telegram.org' });
    expect(config.replyPlatforms.whatsapp).toEqual({
      accessToken: 'EAAB',
      phoneNumberId: '7',
      apiBaseUrl: 'https://graph.facebook.com/v21.0',
    });
    expect(config.resources).toMatchObject({
      toolsFunctionName: 'hookgate-ToolsFunction-abc',
      workspaceBucket: 'hookgate-workspaces-abc',
    });
    expect(loadDeploymentConfig({ WHATSAPP_ACCESS_TOKEN: 'EAAB' }, { runtime: 'aws' }).replyPlatforms).toEqual({});
    expect(() => loadDeploymentConfig({ HOOKGATE_WORKSPACE_BUCKET: 'Not A Bucket' })).toThrow(/HOOKGATE_WORKSPACE_BUCKET/);
  });

  it('enables local only in local runs or when explicitly enabled', () => {
    expect(enabledPlatforms(loadDeploymentConfig({}, { runtime: 'local' }))).toEqual(['local']);
    expect(enabledPlatforms(loadDeploymentConfig({}, { runtime: 'aws' }))).toEqual([]);
    expect(enabledPlatforms(loadDeploymentConfig({ HOOKGATE_LOCAL_ADAPTER: 'true' }, { runtime: 'aws' }))).toEqual(['local']);
    expect(enabledPlatforms(loadDeploymentConfig({ HOOKGATE_LOCAL_ADAPTER: '0' }, { runtime: 'local' }))).toEqual([]);
  });

  it.each([
    ['DISCORD_PUBLIC_KEY', 'xyz', /64 hex/],
    ['TELEGRAM_API_BASE_URL', 'ftp://x', /http\(s\) URL/],
    ['HOOKGATE_MODEL_BASE_URL', 'not a url', /http\(s\) URL/],
    ['HOOKGATE_API_TOKEN', 'two words', /spaces/],
    ['HOOKGATE_ALLOWED_USERS', 'telegram', /platform/],
    ['HOOKGATE_UNAUTHORISED_REPLY', 'shout', /refuse or silent/],
    ['HOOKGATE_LOG_LEVEL', 'verbose', /one of debug, info, warn, error, silent/],
    ['HOOKGATE_TABLE_NAME', 'a table', /DynamoDB table name/],
    ['HOOKGATE_TURNS_QUEUE_URL', 'hookgate-turns.fifo', /SQS queue URL/],
    ['HOOKGATE_TIMERS_QUEUE_URL', 'file:///tmp/q', /SQS queue URL/],
    ['HOOKGATE_EVENTS_TOPIC_ARN', 'hookgate-events', /SNS topic ARN/],
    ['HOOKGATE_PAYLOAD_BUCKET', 'Payloads_Bucket', /S3 bucket name/],
  ])('a malformed %s is a ConfigError naming it', (name, value, problem) => {
    let error: unknown;
    try {
      loadDeploymentConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(name);
    expect((error as ConfigError).message).toMatch(new RegExp(`^${name} `));
    expect((error as ConfigError).message).toMatch(problem);
  });

  it('never puts a secret value in the error', () => {
    expect(() => loadDeploymentConfig({ TELEGRAM_SECRET_TOKEN: 'has spaces!! secret' })).toThrow(
      /^TELEGRAM_SECRET_TOKEN must be/,
    );
    try {
      loadDeploymentConfig({ TELEGRAM_SECRET_TOKEN: 'has spaces!! secret' });
    } catch (e) {
      expect((e as Error).message).not.toContain('secret');
    }
  });

  it('reads the log level, case-insensitive, warning as warn, info by default', () => {
    expect(loadDeploymentConfig({}).logLevel).toBe('info');
    expect(loadDeploymentConfig({ HOOKGATE_LOG_LEVEL: ' WARNING ' }).logLevel).toBe('warn');
    expect(loadDeploymentConfig({ HOOKGATE_LOG_LEVEL: 'Silent' }).logLevel).toBe('silent');
  });

  it("reads the stack's resources once, with the data plane's names; unset ones absent", () => {
    const env = {
      HOOKGATE_TABLE_NAME: 'hookgate-Table-1ABC',
      HOOKGATE_TURNS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/hookgate-turns.fifo',
      HOOKGATE_TIMERS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/hookgate-timers',
      HOOKGATE_EVENTS_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:hookgate-events',
      HOOKGATE_PAYLOAD_BUCKET: 'hookgate-payloads-1abc',
      HOOKGATE_DEPLOYMENT_VERSION: 'f00d',
    };
    expect(loadDeploymentConfig(env, { runtime: 'aws' }).resources).toEqual({
      tableName: 'hookgate-Table-1ABC',
      turnsQueueUrl: env.HOOKGATE_TURNS_QUEUE_URL,
      timersQueueUrl: env.HOOKGATE_TIMERS_QUEUE_URL,
      eventsTopicArn: env.HOOKGATE_EVENTS_TOPIC_ARN,
      payloadBucket: 'hookgate-payloads-1abc',
      deploymentVersion: 'f00d',
    });
    expect(loadDeploymentConfig({ HOOKGATE_TABLE_NAME: ' t-1 ' }).resources).toEqual({
      tableName: 't-1',
      deploymentVersion: 'local',
    });
  });

  it('parses the model and the resources alone with the same rules (for the one-shot agent and the CLI)', () => {
    const env = { HOOKGATE_MODEL: 'gpt-x', HOOKGATE_MODEL_BASE_URL: 'http://127.0.0.1:9/v1/', TELEGRAM_BOT_TOKEN: 'malformed' };
    expect(loadModelConfig(env)).toEqual({ name: 'gpt-x', baseUrl: 'http://127.0.0.1:9/v1' });
    expect(loadModelConfig({})).toEqual({});
    expect(() => loadModelConfig({ HOOKGATE_MODEL_BASE_URL: 'not a url' })).toThrow(ConfigError);
    const dlq = 'https://sqs.eu-west-1.amazonaws.com/123456789012/hookgate-events-dlq';
    expect(loadDeploymentResources({ HOOKGATE_EVENTS_DLQ_URL: dlq, TELEGRAM_BOT_TOKEN: 'malformed' })).toEqual({
      eventsDlqUrl: dlq,
      deploymentVersion: 'local',
    });
    expect(() => loadDeploymentResources({ HOOKGATE_EVENTS_DLQ_URL: 'hookgate-events-dlq' })).toThrow(
      /^HOOKGATE_EVENTS_DLQ_URL must be an SQS queue URL/,
    );
  });

  it("carries an SQS endpoint override to the queues' client (the SDK would send to the queue URL's host)", () => {
    const queue = 'https://sqs.eu-west-1.amazonaws.com/123456789012/hookgate-turns.fifo';
    const vpce = 'https://vpce-0a1b-sqs.sqs.eu-west-1.vpce.amazonaws.com';
    expect(loadDeploymentResources({ HOOKGATE_TURNS_QUEUE_URL: queue }).endpoints).toBeUndefined();
    expect(loadDeploymentResources({ AWS_ENDPOINT_URL_SQS: `${vpce}/` }).endpoints).toEqual({ sqs: vpce });
    expect(loadDeploymentResources({ AWS_ENDPOINT_URL: 'http://127.0.0.1:4566' }).endpoints).toEqual({
      sqs: 'http://127.0.0.1:4566',
    });
    expect(loadDeploymentResources({ AWS_ENDPOINT_URL: 'http://127.0.0.1:4566', AWS_ENDPOINT_URL_SQS: vpce }).endpoints).toEqual({
      sqs: vpce,
    });
    expect(() => loadDeploymentResources({ AWS_ENDPOINT_URL_SQS: 'sqs.local' })).toThrow(
      /^AWS_ENDPOINT_URL_SQS must be an http\(s\) URL/,
    );
    // As the SDK does: configured endpoints are ignored on request.
    const ignored = { AWS_ENDPOINT_URL_SQS: vpce, AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true' };
    expect(loadDeploymentResources(ignored).endpoints).toBeUndefined();
    expect(loadDeploymentResources({ ...ignored, AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'false' }).endpoints).toEqual({
      sqs: vpce,
    });
  });

  it('strips trailing slashes of base URLs', () => {
    const config = loadDeploymentConfig({
      TELEGRAM_BOT_TOKEN: '1:a',
      TELEGRAM_SECRET_TOKEN: 's',
      TELEGRAM_API_BASE_URL: 'http://127.0.0.1:9/tg/',
    });
    expect(config.platforms.telegram?.apiBaseUrl).toBe('http://127.0.0.1:9/tg');
  });
});

describe('allowed users', () => {
  it('unset: everyone locally, no one in AWS', () => {
    expect(isAllowed(undefined, 'telegram', '1', 'local')).toBe(true);
    expect(isAllowed(undefined, 'telegram', '1', 'aws')).toBe(false);
  });

  it('matches platform:user, platform:* and *', () => {
    const allowed = parseAllowedUsers('telegram:123, slack:*');
    expect(isAllowed(allowed, 'telegram', '123', 'aws')).toBe(true);
    expect(isAllowed(allowed, 'telegram', '124', 'aws')).toBe(false);
    expect(isAllowed(allowed, 'slack', 'U9', 'aws')).toBe(true);
    expect(isAllowed(allowed, 'discord', null, 'aws')).toBe(false);
    expect(isAllowed(parseAllowedUsers('*'), 'teams', 'x', 'aws')).toBe(true);
  });

  it('refuses a platform hookgate does not have (a typo would lock its users out silently), naming the variable', () => {
    expect(() => parseAllowedUsers('local:u1,Local:u2')).toThrow(
      /HOOKGATE_ALLOWED_USERS.*names a platform hookgate does not have: "Local" in "Local:u2" \(platforms: telegram, /,
    );
    expect(() => parseAllowedUsers('lcoal:u1', 'HOOKGATE_APPROVERS')).toThrow(/HOOKGATE_APPROVERS.*"lcoal"/);
    // Spaces around the colon are read as the entry means.
    expect(isAllowed(parseAllowedUsers('telegram: 123'), 'telegram', '123', 'aws')).toBe(true);
  });
});
