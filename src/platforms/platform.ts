import type * as z from '../validation/zod.ts';
import type { AttachmentSource } from '../messaging/attachment.ts';
import type { ReplyTarget } from '../messaging/message-event.ts';
import type { RetryingSend } from '../messaging/reply-retry.ts';
import type { LocalOutboxStore } from '../store/local-outbox-store.ts';
import { AttachmentDownloadError } from './attachment-download-errors.ts';

/**
 * Reads one of the platform's variables, validated against its format in `Platform.env`:
 * `undefined` when unset or empty. A malformed value throws (config/'s `ConfigError`).
 */
export type EnvReader = (name: string) => string | undefined;

/** A platform's inbound settings: all there, or the variables that are missing (it is then off). */
export type InboundSettings<C> = { readonly config: C } | { readonly missing: readonly string[] };

/** What a reply sender may need beside its own settings (shared by every platform's sender). */
export interface ReplySenderContext {
  /** Sends one request with the deployment's retry policy (messaging/reply-retry.ts). */
  readonly retry: RetryingSend;
  /** The table of the local outbox (`local` replies), when configured. */
  readonly tableName?: string;
  /** Where `local` replies go instead of that table (tests, `hookgate dev`). */
  readonly outbox?: LocalOutboxStore;
}

/** Sends one reply on one platform; rejects with a `ReplyError` (or `ReplyUndeliveredError`). */
export type ReplySender = (target: ReplyTarget, text: string) => Promise<void>;

/**
 * Fetches the bytes of one of the platform's attachments, never more than `maxBytes`
 * (docs/attachments.md); throws `AttachmentDownloadError` or `AttachmentTooLargeError`.
 * Written as a method's type so that one platform's fetch (which takes only its own sources)
 * can sit in the registry beside the others'.
 */
export type AttachmentFetch<Name extends string> = {
  fetch(source: Extract<AttachmentSource, { platform: Name }>, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array>;
}['fetch'];

/** The error of a download for a platform whose reply settings are not set here. */
export function platformOff(platform: string): AttachmentDownloadError {
  return new AttachmentDownloadError(`${platform} is not enabled here; its attachment cannot be downloaded`);
}

/** The secret keys a platform reads, split by which of the deployment's two secrets holds them (docs/deploy.md, "Secrets"). */
export interface PlatformSecretKeys {
  /** What verifies inbound requests: in the gateway's secret, which only the gateway reads. */
  readonly gateway: readonly string[];
  /** What replies (and downloads) need: in the reply secret, which the turn function reads too. */
  readonly reply: readonly string[];
}

/**
 * One chat platform: its settings (each variable's zod format, which of them are secrets, how
 * they make its inbound and reply configuration), its reply sender and its attachment download. `Inbound` is what the
 * gateway needs (verification secrets included); `Reply` is the part the turn function needs
 * to answer, and `Inbound` holds it too. Its inbound adapter (`<name>-adapter.ts`, beside it)
 * is listed in `inbound-adapters.ts`, which only the gateway imports: verifying webhooks pulls
 * in libraries (jose, discord-interactions) the turn and observer functions have no use for.
 * Every platform is listed in `registry.ts`; nothing else names platforms one by one.
 *
 * @example
 * const settings = platform.loadReply(read, 'aws');
 * if (settings) senders.set(platform.name, platform.createReplySender(settings, { retry }));
 */
export interface Platform<Name extends string, Inbound extends Reply, Reply> {
  readonly name: Name;
  /** Every environment variable it reads, with its format. */
  readonly env: Readonly<Record<string, z.ZodMiniType<string>>>;
  readonly secretKeys: PlatformSecretKeys;
  /** Its inbound configuration, or the variables it lacks (for the start-up log). */
  loadInbound(read: EnvReader, runtime: 'local' | 'aws'): InboundSettings<Inbound>;
  /** Its reply configuration when its reply variables are all set, whether or not its inbound ones are. */
  loadReply(read: EnvReader, runtime: 'local' | 'aws'): Reply | undefined;
  /** Sends replies; built once per replier (a token cache lives as long). */
  createReplySender(config: Reply, context: ReplySenderContext): ReplySender;
  /** Downloads its attachments with its reply credentials; `undefined` when they are not set (a download that needs them then fails). */
  createDownloader(config: Reply | undefined): AttachmentFetch<Name>;
}

/** Any platform, whatever its configuration types (for code that iterates the registry). */
// biome-ignore lint/suspicious/noExplicitAny: each entry is called only with the settings its own loaders made
type AnySettings = any;
export type AnyPlatform = Platform<AnySettings, AnySettings, AnySettings>;
