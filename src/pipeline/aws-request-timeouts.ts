/**
 * How long the functions' AWS SDK clients (DynamoDB, SQS, SNS, S3, Secrets Manager) wait on a
 * connection before giving it up. The turn function's invoke of the tools function takes the
 * connect limit alone (`toolsFunctionClient` in src/agent/sandbox/lambda-sandbox.ts).
 *
 * The SDK's own defaults are no limit on connecting and 300 s (DynamoDB, Secrets Manager) to 900 s
 * (SQS) of silence on an open socket. A kept-alive connection that died while the environment was
 * frozen (a NAT gateway forgets an idle mapping after 350 s; nothing tells the client) then swallows
 * the next request: the gateway answered the platform only when Lambda killed it at 29 s, and a turn
 * stalled until its own timeout. With these limits the request fails as a `TimeoutError`, which the
 * SDK's retry strategy sends again on a fresh connection (conditional writes sent twice are safe:
 * `wroteItItself` in src/store/dynamo-table.ts).
 *
 * `idleMs` counts silence, not the whole request: a large S3 transfer that keeps moving is not cut.
 * It must stay above the longest wait a request asks the service for (the local SQS poller's long
 * poll, `MAX_LONG_POLL_SECONDS`).
 */
export interface AwsRequestTimeouts {
  /** Until the TCP connection is up. */
  connectMs: number;
  /** Silence on the socket while a request is out (no byte sent or received). */
  idleMs: number;
}

/**
 * AWS's endpoints connect in milliseconds and answer these calls in tens of milliseconds; three
 * attempts at these limits (the SDK's standard retry mode) still end well inside the gateway's 29 s.
 */
export const AWS_REQUEST_TIMEOUTS: AwsRequestTimeouts = { connectMs: 3_000, idleMs: 5_000 };

/** The longest SQS long poll a request may ask for while {@link AWS_REQUEST_TIMEOUTS} applies. */
export const MAX_LONG_POLL_SECONDS = Math.floor(AWS_REQUEST_TIMEOUTS.idleMs / 1000) - 1;

/**
 * The `requestHandler` part of an SDK client's configuration for `timeouts`.
 *
 * @example
 * const dynamodb = new DynamoDBClient({ ...requestHandlerWith(AWS_REQUEST_TIMEOUTS) });
 */
export function requestHandlerWith(timeouts: AwsRequestTimeouts): {
  requestHandler: { connectionTimeout: number; socketTimeout: number };
} {
  return { requestHandler: { connectionTimeout: timeouts.connectMs, socketTimeout: timeouts.idleMs } };
}
