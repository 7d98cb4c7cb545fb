import { describe, expect, it } from 'vitest';
import {
  GATEWAY_SECRET_INITIAL_KEYS,
  GATEWAY_SECRET_KEYS,
  REPLY_SECRET_INITIAL_KEYS,
  REPLY_SECRET_KEYS,
} from '../../infra/lib/secret-keys.ts';
import { loadDeploymentConfig } from '../../src/config/deployment-config.ts';
import { retryingSend } from '../../src/messaging/reply-retry.ts';
import { createAttachmentDownloader } from '../../src/platforms/attachment-download.ts';
import { AttachmentDownloadError } from '../../src/platforms/attachment-download-errors.ts';
import { INBOUND_ADAPTERS } from '../../src/platforms/inbound-adapters.ts';
import type { EnvReader } from '../../src/platforms/platform.ts';
import { ANY_PLATFORMS, PLATFORM_NAMES, PLATFORMS } from '../../src/platforms/registry.ts';

/** Well-formed settings for each platform: every one the registry lists must be here. */
const SAMPLE_ENV: Record<string, Record<string, string>> = {
  telegram: { TELEGRAM_BOT_TOKEN: '123:abc', TELEGRAM_SECRET_TOKEN: 'secret-token' },
  slack: { SLACK_SIGNING_SECRET: 'signing', SLACK_BOT_TOKEN: 'xoxb-1' },
  discord: { DISCORD_PUBLIC_KEY: 'ab'.repeat(32), DISCORD_APPLICATION_ID: '42' },
  whatsapp: {
    WHATSAPP_APP_SECRET: 'app',
    WHATSAPP_VERIFY_TOKEN: 'verify',
    WHATSAPP_ACCESS_TOKEN: 'access',
    WHATSAPP_PHONE_NUMBER_ID: '7',
  },
  teams: { TEAMS_APP_ID: 'app-id', TEAMS_APP_PASSWORD: 'password' },
  local: { HOOKGATE_LOCAL_ADAPTER: 'true' },
};

/** A reader over `env` that checks each variable against the platform's own format, as the config loader does. */
function readerFor(formats: Readonly<Record<string, { parse(value: unknown): string }>>, env: Record<string, string>): EnvReader {
  return (name) => {
    const format = formats[name];
    if (!format) throw new Error(`reads ${name}, which its env does not declare`);
    const value = env[name];
    return value === undefined ? undefined : format.parse(value);
  };
}

describe('platform registry', () => {
  it('lists each platform once, in the fixed order of start-up logs', () => {
    expect(PLATFORM_NAMES).toEqual(['telegram', 'slack', 'discord', 'whatsapp', 'teams', 'local']);
    expect(new Set(PLATFORM_NAMES).size).toBe(PLATFORMS.length);
    expect(Object.keys(SAMPLE_ENV).sort()).toEqual([...PLATFORM_NAMES].sort());
  });

  it('gives every platform an inbound adapter, and the adapter says which platform it is', async () => {
    expect(Object.keys(INBOUND_ADAPTERS).sort()).toEqual([...PLATFORM_NAMES].sort());
    for (const platform of ANY_PLATFORMS) {
      const settings = platform.loadInbound(readerFor(platform.env, SAMPLE_ENV[platform.name]!), 'aws');
      expect(settings, platform.name).toHaveProperty('config');
      if (!('config' in settings)) continue;
      const factory = (await INBOUND_ADAPTERS[platform.name as keyof typeof INBOUND_ADAPTERS]()) as (config: unknown) => {
        platform: string;
      };
      expect(factory(settings.config).platform).toBe(platform.name);
    }
  });

  it('gives every platform a reply sender and a download, built from its reply settings', () => {
    const retry = retryingSend({});
    for (const platform of ANY_PLATFORMS) {
      const reply = platform.loadReply(readerFor(platform.env, SAMPLE_ENV[platform.name]!), 'aws');
      expect(reply, platform.name).toBeDefined();
      expect(typeof platform.createReplySender(reply, { retry, tableName: 'hookgate' })).toBe('function');
      expect(typeof platform.createDownloader(reply)).toBe('function');
    }
  });

  it('refuses a download that needs reply credentials the deployment lacks, naming the platform', async () => {
    const downloader = createAttachmentDownloader({ platforms: {} });
    await expect(downloader.download({ platform: 'telegram', file_id: 'f' }, 1024)).rejects.toThrow(
      new AttachmentDownloadError('telegram is not enabled here; its attachment cannot be downloaded'),
    );
    await expect(downloader.download({ platform: 'teams', url: 'http://127.0.0.1:9/x', auth: true }, 1024)).rejects.toThrow(
      /teams is not enabled here/,
    );
    expect(Buffer.from(await downloader.download({ platform: 'local', data_base64: 'aGk=' }, 1024)).toString()).toBe('hi');
  });

  it('has each platform read only variables it declares, and name what it lacks when unset', () => {
    for (const platform of ANY_PLATFORMS) {
      expect(Object.keys(platform.env).length, platform.name).toBeGreaterThan(0);
      const settings = platform.loadInbound(readerFor(platform.env, {}), 'aws');
      expect(settings, platform.name).toHaveProperty('missing');
      expect(platform.loadReply(readerFor(platform.env, {}), 'aws'), platform.name).toBeUndefined();
    }
  });

  it('declares each secret key in its own env, in one secret only, and no key in two platforms', () => {
    const seen = new Map<string, string>();
    for (const platform of ANY_PLATFORMS) {
      const { gateway, reply } = platform.secretKeys;
      for (const key of [...gateway, ...reply]) {
        expect(Object.keys(platform.env), `${platform.name}: ${key}`).toContain(key);
        expect(seen.get(key), `${key} is claimed by ${seen.get(key)} and ${platform.name}`).toBeUndefined();
        seen.set(key, platform.name);
      }
      expect(
        gateway.filter((key) => reply.includes(key)),
        platform.name,
      ).toEqual([]);
    }
  });

  it("lists the keys each secret holds, all of them in the secrets' frozen initial values", () => {
    // A key a platform needs that a deployed secret does not start with is one the operator must add
    // by hand (a deploy never rewrites the secrets: infra/lib/secret-keys.ts). When this fails, name
    // the new key in docs/deploy.md ("Put the secrets in place") and let this test list it.
    expect(GATEWAY_SECRET_KEYS).toEqual(GATEWAY_SECRET_INITIAL_KEYS);
    expect(REPLY_SECRET_KEYS).toEqual(REPLY_SECRET_INITIAL_KEYS);
  });

  it('is what the deployment config loads: every platform on with its sample settings, each validated by its own format', () => {
    const env = Object.assign({}, ...Object.values(SAMPLE_ENV)) as Record<string, string>;
    const config = loadDeploymentConfig(env, { runtime: 'aws' });
    expect(Object.keys(config.platforms)).toEqual([...PLATFORM_NAMES]);
    expect(Object.keys(config.replyPlatforms)).toEqual([...PLATFORM_NAMES]);
    expect(config.disabled).toEqual([]);
    expect(() => loadDeploymentConfig({ ...env, DISCORD_PUBLIC_KEY: 'not-hex' }, { runtime: 'aws' })).toThrow(
      /DISCORD_PUBLIC_KEY/,
    );
  });
});
