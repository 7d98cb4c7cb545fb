import { httpUrl, token } from '../env-formats.ts';
import { readGroup } from '../env-group.ts';
import type { EnvReader, InboundSettings, PlatformSecretKeys } from '../platform.ts';
import type { SlackReplyOptions } from './slack-reply.ts';

/** What the gateway needs for Slack: the signing secret (Events API), the bot token, the API. */
export interface SlackConfig {
  signingSecret: string;
  botToken: string;
  apiBaseUrl: string;
}

export const SLACK_DEFAULT_API_BASE_URL = 'https://slack.com/api';

/** Slack's variables and their formats. */
export const SLACK_ENV = { SLACK_SIGNING_SECRET: token, SLACK_BOT_TOKEN: token, SLACK_API_BASE_URL: httpUrl };

export const SLACK_SECRET_KEYS: PlatformSecretKeys = { gateway: ['SLACK_SIGNING_SECRET'], reply: ['SLACK_BOT_TOKEN'] };

export function loadSlackInbound(read: EnvReader): InboundSettings<SlackConfig> {
  const group = readGroup(read, ['SLACK_SIGNING_SECRET', 'SLACK_BOT_TOKEN'], ['SLACK_API_BASE_URL']);
  if (!('config' in group)) return group;
  const { SLACK_SIGNING_SECRET: signingSecret, SLACK_BOT_TOKEN: botToken } = group.config;
  return { config: { signingSecret, botToken, apiBaseUrl: read('SLACK_API_BASE_URL') ?? SLACK_DEFAULT_API_BASE_URL } };
}

export function loadSlackReply(read: EnvReader): SlackReplyOptions | undefined {
  const botToken = read('SLACK_BOT_TOKEN');
  return botToken === undefined ? undefined : { botToken, apiBaseUrl: read('SLACK_API_BASE_URL') ?? SLACK_DEFAULT_API_BASE_URL };
}
