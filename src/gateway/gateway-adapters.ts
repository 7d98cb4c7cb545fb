import type { DeploymentConfig, PlatformName } from '../config/deployment-config.ts';
import type { PlatformAdapter } from './platform-adapter.ts';
import { discordAdapter } from './platforms/discord/discord-adapter.ts';
import { localAdapter } from './platforms/local/local-adapter.ts';
import { slackAdapter } from './platforms/slack/slack-adapter.ts';
import { teamsAdapter } from './platforms/teams/teams-adapter.ts';
import { telegramAdapter } from './platforms/telegram/telegram-adapter.ts';
import { whatsAppAdapter } from './platforms/whatsapp/whatsapp-adapter.ts';

/**
 * One adapter per enabled platform.
 *
 * @example
 * const adapters = createAdapters(config); adapters.get('telegram')?.handle(request);
 */
export function createAdapters(config: DeploymentConfig): Map<PlatformName, PlatformAdapter> {
  const { telegram, slack, discord, whatsapp, teams, local } = config.platforms;
  const adapters = new Map<PlatformName, PlatformAdapter>();
  if (telegram) adapters.set('telegram', telegramAdapter(telegram));
  if (slack) adapters.set('slack', slackAdapter(slack));
  if (discord) adapters.set('discord', discordAdapter(discord));
  if (whatsapp) adapters.set('whatsapp', whatsAppAdapter(whatsapp));
  if (teams) adapters.set('teams', teamsAdapter(teams));
  if (local) adapters.set('local', localAdapter());
  return adapters;
}
