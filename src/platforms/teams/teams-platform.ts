import type { Platform } from '../platform.ts';
import { teamsDownload } from './teams-download.ts';
import { loadTeamsInbound, loadTeamsReply, TEAMS_ENV, TEAMS_SECRET_KEYS, type TeamsConfig } from './teams-config.ts';
import { sendTeamsReply } from './teams-reply.ts';
import { TeamsTokenSource, type TeamsReplyOptions } from './teams-token-source.ts';

/** Microsoft Teams: Bot Framework activities (JWT-verified), replies to the activity with the bot's token. */
export const teamsPlatform: Platform<'teams', TeamsConfig, TeamsReplyOptions> = {
  name: 'teams',
  env: TEAMS_ENV,
  secretKeys: TEAMS_SECRET_KEYS,
  loadInbound: loadTeamsInbound,
  loadReply: loadTeamsReply,
  createReplySender: (config, { retry }) => {
    // One token source per replier: the bot's token is cached across replies.
    const tokens = new TeamsTokenSource(config);
    return (target, text) => sendTeamsReply(tokens, target, text, retry);
  },
  createDownloader: teamsDownload,
};
