/**
 * What became of one delivery. `reply` is the text the user gets now from the gateway
 * itself (refusal, command answer); agent answers come later from the turn runtime.
 */
export type DispatchOutcome =
  /** Durably on the turns queue. */
  | { readonly kind: 'enqueued'; readonly deliveryId: string; readonly sessionKey: string; readonly reply?: string }
  /** Already seen (platform retry): nothing done again. */
  | { readonly kind: 'duplicate'; readonly deliveryId: string; readonly reply?: undefined }
  /** `pre_gateway_dispatch` said skip. */
  | { readonly kind: 'skipped'; readonly deliveryId: string; readonly reason: string; readonly reply?: undefined }
  /** The sender is not in HOOKGATE_ALLOWED_USERS. */
  | { readonly kind: 'refused'; readonly deliveryId: string; readonly reply?: string }
  /** A slash command handled by the gateway (or denied/handled by a command hook). */
  | { readonly kind: 'command'; readonly deliveryId: string; readonly command: string; readonly reply?: string };
