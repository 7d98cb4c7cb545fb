import { ReplyError } from '../../messaging/reply-error.ts';
import { createDynamoTable } from '../../store/dynamo-table.ts';
import { DynamoLocalOutboxStore, type LocalOutboxStore } from '../../store/local-outbox-store.ts';
import type { Platform } from '../platform.ts';
import { localDownload } from './local-download.ts';
import { loadLocalInbound, loadLocalReply, LOCAL_ENV, LOCAL_SECRET_KEYS, type LocalConfig } from './local-config.ts';

/**
 * `local`: unsigned JSON posts from this machine (`hookgate dev`, tests); replies go to the
 * local outbox in the deployment's table (or the one the replier was given), which
 * `hookgate chat` and the console read.
 */
export const localPlatform: Platform<'local', LocalConfig, LocalConfig> = {
  name: 'local',
  env: LOCAL_ENV,
  secretKeys: LOCAL_SECRET_KEYS,
  loadInbound: loadLocalInbound,
  loadReply: loadLocalReply,
  createReplySender: (_config, { outbox: given, tableName }) => {
    // Opened on the first reply: a replier that never answers `local` needs no table.
    let outbox: LocalOutboxStore | undefined = given;
    return async (target, text) => {
      if (!outbox) {
        if (!tableName) throw new ReplyError('local', 'no table configured for the local outbox', 500);
        outbox = new DynamoLocalOutboxStore(createDynamoTable({ tableName }));
      }
      return outbox.append(target.chat_id, text);
    };
  },
  createDownloader: () => localDownload(),
};
