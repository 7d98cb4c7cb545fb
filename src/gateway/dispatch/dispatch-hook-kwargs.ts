import type { MessageEvent } from '../../messaging/message-event.ts';
import { attachmentSummary } from '../../messaging/attachment.ts';

/*
 * What `pre_gateway_dispatch` callbacks are handed besides their decision (hook-semantics §1.12):
 * the event, the gateway and the session store. Plugins use them as objects; a shell hook gets
 * each as a string under `extra` (§0.4 renders a value that is not a plain object by its
 * String()), as the reference's dataclasses reach its scripts.
 */

/**
 * The inbound event as hooks see it: its fields as own properties, and as a string its compact
 * JSON (what a shell hook reads: `jq -r '.extra.event | fromjson | .text'`).
 *
 * @example
 * String(DispatchEventView.of(event)) // '{"text":"hi","source":{…},…}'
 */
export class DispatchEventView {
  [field: string]: unknown;

  /**
   * A copy of `event` with its attachments as kind, MIME type (the platform's claim), size and
   * name, without the download reference (a token-bearing URL, or the local adapter's bytes).
   */
  static of(event: MessageEvent): DispatchEventView {
    const { attachments, ...rest } = structuredClone(event);
    return Object.assign(new DispatchEventView(), rest, attachments ? { attachments: attachments.map(attachmentSummary) } : {});
  }

  toString(): string {
    return JSON.stringify({ ...this });
  }
}

/** The gateway as hooks see it: its enabled platforms, and `send` for an out-of-band reply. */
export class GatewayHandle {
  constructor(
    readonly platforms: readonly string[],
    readonly send: (target: MessageEvent['reply'], text: string) => Promise<unknown>,
  ) {}

  toString(): string {
    return '<hookgate gateway>';
  }
}

/** The session store as hooks see it: the current session of a session key. */
export class SessionStoreHandle {
  constructor(readonly current: (sessionKey: string) => Promise<unknown>) {}

  toString(): string {
    return '<hookgate session store>';
  }
}
