import { AttachmentDownloadError } from '../attachment-download-errors.ts';
import { bearer, fetchBounded } from '../bounded-fetch.ts';
import { platformOff, type AttachmentFetch } from '../platform.ts';
import { TeamsTokenSource, type TeamsReplyOptions } from './teams-token-source.ts';
import { errorText } from '../../errors/error-text.ts';

/** `contentUrl` under the activity's serviceUrl with the bot's token, or a file's pre-authenticated `downloadUrl`. */
export function teamsDownload(config: TeamsReplyOptions | undefined): AttachmentFetch<'teams'> {
  const tokens = config ? new TeamsTokenSource(config) : undefined;
  return async (source, maxBytes, signal) => {
    if (!source.auth) return fetchBounded(source.url, {}, maxBytes, 'teams file', signal);
    if (!tokens) throw platformOff('teams');
    let token: string;
    try {
      token = await tokens.token();
    } catch (error) {
      throw new AttachmentDownloadError(`teams attachment: ${errorText(error)}`);
    }
    return fetchBounded(source.url, bearer(token), maxBytes, 'teams attachment', signal);
  };
}
