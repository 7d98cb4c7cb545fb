import * as z from '../../validation/zod.ts';
import { ReplyError } from '../../messaging/reply-error.ts';
import { errorText } from '../../errors/error-text.ts';

/** What the bot's outbound token needs (the gateway's `TeamsConfig` has it). */
export interface TeamsReplyOptions {
  appId: string;
  appPassword: string;
  /** `TEAMS_TOKEN_URL`. */
  tokenUrl: string;
}

const TokenAnswer = z.object({
  access_token: z.string().check(z.minLength(1)),
  expires_in: z.coerce.number().check(z.positive()),
});

/**
 * The bot's outbound token (OAuth client credentials against `TEAMS_TOKEN_URL`, scope
 * `https://api.botframework.com/.default`), cached until a minute before it expires.
 *
 * @example
 * const tokens = new TeamsTokenSource(config.platforms.teams!);
 * const bearer = await tokens.token();
 */
export class TeamsTokenSource {
  private cached?: { token: string; until: number };
  private pending?: Promise<string>;

  constructor(private readonly config: TeamsReplyOptions) {}

  async token(now: number = Date.now()): Promise<string> {
    if (this.cached && this.cached.until > now) return this.cached.token;
    this.pending ??= this.fetchToken(now).finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async fetchToken(now: number): Promise<string> {
    let response: Response;
    try {
      response = await fetch(this.config.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: this.config.appId,
          client_secret: this.config.appPassword,
          scope: 'https://api.botframework.com/.default',
        }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw new ReplyError('teams', `token request failed: ${errorText(error)}`);
    }
    if (!response.ok) throw new ReplyError('teams', `token request: HTTP ${response.status}`, response.status);
    const parsed = TokenAnswer.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw new ReplyError('teams', 'token answer has no access_token/expires_in', 502);
    this.cached = { token: parsed.data.access_token, until: now + (parsed.data.expires_in - 60) * 1000 };
    return parsed.data.access_token;
  }
}
