import { bearer, fetchBounded, rebased } from '../bounded-fetch.ts';
import { platformOff, type AttachmentFetch } from '../platform.ts';
import { SLACK_DEFAULT_API_BASE_URL } from './slack-config.ts';
import type { SlackReplyOptions } from './slack-reply.ts';

/**
 * `url_private_download` with the bot token as bearer; with `SLACK_API_BASE_URL` set elsewhere
 * than Slack's, the file's path is requested at that base (a proxy, a test's fake).
 */
export function slackDownload(config: SlackReplyOptions | undefined): AttachmentFetch<'slack'> {
  return async (source, maxBytes, signal) => {
    if (!config) throw platformOff('slack');
    const fileBase = config.apiBaseUrl === SLACK_DEFAULT_API_BASE_URL ? undefined : config.apiBaseUrl;
    return fetchBounded(rebased(source.url, fileBase), bearer(config.botToken), maxBytes, 'slack file', signal);
  };
}
