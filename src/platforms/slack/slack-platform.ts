import type { Platform } from '../platform.ts';
import { slackDownload } from './slack-download.ts';
import { loadSlackInbound, loadSlackReply, SLACK_ENV, SLACK_SECRET_KEYS, type SlackConfig } from './slack-config.ts';
import { sendSlackReply, type SlackReplyOptions } from './slack-reply.ts';

/** Slack: Events API (signed requests, URL verification), replies through `chat.postMessage`. */
export const slackPlatform: Platform<'slack', SlackConfig, SlackReplyOptions> = {
  name: 'slack',
  env: SLACK_ENV,
  secretKeys: SLACK_SECRET_KEYS,
  loadInbound: loadSlackInbound,
  loadReply: loadSlackReply,
  createReplySender:
    (config, { retry }) =>
    (target, text) =>
      sendSlackReply(config, target, text, retry),
  createDownloader: slackDownload,
};
