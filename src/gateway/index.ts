/** The gateway's public surface (the Hono app, its dependencies, the platform replier). */
export { createGatewayApp } from './app.ts';
export { createReplier, type CreateReplierOptions } from '../platforms/create-replier.ts';
export { ReplyError } from '../messaging/reply-error.ts';
export { announceGatewayStartup } from './gateway-startup.ts';
export { gatewayDepsFromDataPlane } from './gateway-deps-from-data-plane.ts';
export type { GatewayDeps, TurnSender } from './gateway-deps.ts';
export type { Replier } from '../messaging/replier.ts';
export type { MessageEvent, MessageSource, ReplyTarget } from '../messaging/message-event.ts';
export type { DispatchOutcome } from './dispatch/dispatch-outcome.ts';
export type { PlatformAdapter, InboundRequest, Delivery, AdapterVerdict } from '../platforms/platform-adapter.ts';
export {
  InvalidSignatureError,
  ForbiddenHandshakeError,
  MalformedPayloadError,
  PlatformDisabledError,
  VerificationUnavailableError,
  WebhookError,
} from '../platforms/webhook-errors.ts';
