/**
 * The environment that enables every chat platform against the fake platform server at
 * `fakeUrl` (fake-platform-server.ts), with the secrets the signing helpers (signed-requests.ts)
 * use: what a gateway under test needs to take a signed webhook of any platform.
 *
 * @example
 * const gw = gatewayHarness(aws, fakePlatformEnv(fake.url, discordKeys().publicKeyHex));
 */
export function fakePlatformEnv(fakeUrl: string, discordPublicKeyHex: string): NodeJS.ProcessEnv {
  return {
    TELEGRAM_BOT_TOKEN: '123:abc',
    TELEGRAM_SECRET_TOKEN: 'tg-secret',
    TELEGRAM_API_BASE_URL: `${fakeUrl}/telegram`,
    SLACK_SIGNING_SECRET: 'slack-secret',
    SLACK_BOT_TOKEN: 'xoxb-1',
    SLACK_API_BASE_URL: `${fakeUrl}/slack`,
    DISCORD_PUBLIC_KEY: discordPublicKeyHex,
    DISCORD_APPLICATION_ID: '999',
    DISCORD_API_BASE_URL: `${fakeUrl}/discord`,
    WHATSAPP_APP_SECRET: 'wa-secret',
    WHATSAPP_VERIFY_TOKEN: 'wa-verify',
    WHATSAPP_ACCESS_TOKEN: 'wa-access',
    WHATSAPP_PHONE_NUMBER_ID: '555',
    WHATSAPP_API_BASE_URL: `${fakeUrl}/whatsapp`,
    TEAMS_APP_ID: 'teams-app-id',
    TEAMS_APP_PASSWORD: 'pw',
    TEAMS_OPENID_METADATA_URL: `${fakeUrl}/teams/openid`,
    TEAMS_TOKEN_URL: `${fakeUrl}/teams/token`,
  };
}
