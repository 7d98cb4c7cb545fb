import * as z from '../../validation/zod.ts';
import { httpUrl, token } from '../env-formats.ts';
import { readGroup } from '../env-group.ts';
import type { EnvReader, InboundSettings, PlatformSecretKeys } from '../platform.ts';
import type { TeamsReplyOptions } from './teams-token-source.ts';

/** What the gateway needs for Teams: the bot's app id and password, where its keys and tokens come from. */
export interface TeamsConfig {
  appId: string;
  appPassword: string;
  openIdMetadataUrl: string;
  tokenUrl: string;
}

export const TEAMS_DEFAULT_OPENID_METADATA_URL = 'https://login.botframework.com/v1/.well-known/openidconfiguration';
export const TEAMS_DEFAULT_TOKEN_URL = 'https://login.microsoftonline.com/botframework.com/oauth2/v2.0/token';

/** Teams' variables and their formats. */
export const TEAMS_ENV = {
  TEAMS_APP_ID: token,
  TEAMS_APP_PASSWORD: z.string().check(z.minLength(1)),
  TEAMS_OPENID_METADATA_URL: httpUrl,
  TEAMS_TOKEN_URL: httpUrl,
};

/** Nothing in the gateway's secret: the JWT is checked against Microsoft's published keys. */
export const TEAMS_SECRET_KEYS: PlatformSecretKeys = { gateway: [], reply: ['TEAMS_APP_ID', 'TEAMS_APP_PASSWORD'] };

export function loadTeamsInbound(read: EnvReader): InboundSettings<TeamsConfig> {
  const group = readGroup(read, ['TEAMS_APP_ID', 'TEAMS_APP_PASSWORD'], ['TEAMS_OPENID_METADATA_URL', 'TEAMS_TOKEN_URL']);
  if (!('config' in group)) return group;
  return {
    config: {
      appId: group.config.TEAMS_APP_ID,
      appPassword: group.config.TEAMS_APP_PASSWORD,
      openIdMetadataUrl: read('TEAMS_OPENID_METADATA_URL') ?? TEAMS_DEFAULT_OPENID_METADATA_URL,
      tokenUrl: read('TEAMS_TOKEN_URL') ?? TEAMS_DEFAULT_TOKEN_URL,
    },
  };
}

export function loadTeamsReply(read: EnvReader): TeamsReplyOptions | undefined {
  const appId = read('TEAMS_APP_ID');
  const appPassword = read('TEAMS_APP_PASSWORD');
  if (appId === undefined || appPassword === undefined) return undefined;
  return { appId, appPassword, tokenUrl: read('TEAMS_TOKEN_URL') ?? TEAMS_DEFAULT_TOKEN_URL };
}
