import type { ReplyTarget } from '../../messaging/message-event.ts';
import { postJson } from '../../messaging/platform-http.ts';
import { ReplyError } from '../../messaging/reply-error.ts';
import type { RetryingSend } from '../../messaging/reply-retry.ts';
import { splitText } from '../../messaging/split-text.ts';
import type { TeamsTokenSource } from './teams-token-source.ts';

const MAX_CHARS = 28_000;

/**
 * Replies to the inbound activity: `{serviceUrl}/v3/conversations/{id}/activities/{activityId}`.
 * The serviceUrl came from an activity whose JWT carried the same `serviceUrl` claim.
 */
export async function sendTeamsReply(
  tokens: TeamsTokenSource,
  target: ReplyTarget,
  text: string,
  retry: RetryingSend,
): Promise<void> {
  const { service_url: serviceUrl, activity_id: activityId } = target.extra;
  if (!serviceUrl || !activityId) throw new ReplyError('teams', 'the reply target has no service_url/activity_id', 400);
  const base = serviceUrl.replace(/\/+$/, '');
  for (const piece of splitText(text, MAX_CHARS)) {
    await retry.run(async () => {
      const bearer = await tokens.token();
      await postJson(
        'teams',
        `${base}/v3/conversations/${encodeURIComponent(target.chat_id)}/activities/${encodeURIComponent(activityId)}`,
        { type: 'message', text: piece, replyToId: activityId },
        { authorization: `Bearer ${bearer}` },
      );
    });
  }
}
