/**
 * Environment variables through which a deployed function learns its resources (set by the
 * CDK stack; CloudFormation generates the names). Locally, `hookgate dev` passes the same
 * values from the emulators.
 */
export const RESOURCE_ENV = {
  tableName: 'HOOKGATE_TABLE_NAME',
  turnsQueueUrl: 'HOOKGATE_TURNS_QUEUE_URL',
  timersQueueUrl: 'HOOKGATE_TIMERS_QUEUE_URL',
  eventsTopicArn: 'HOOKGATE_EVENTS_TOPIC_ARN',
  eventsQueueUrl: 'HOOKGATE_EVENTS_QUEUE_URL',
  eventsDlqUrl: 'HOOKGATE_EVENTS_DLQ_URL',
  turnsDlqUrl: 'HOOKGATE_TURNS_DLQ_URL',
  timersDlqUrl: 'HOOKGATE_TIMERS_DLQ_URL',
  payloadBucket: 'HOOKGATE_PAYLOAD_BUCKET',
  /**
   * The gateway's Secrets Manager secret (JSON): inbound verification secrets and the `/v1`
   * token. Set on the gateway alone.
   */
  secretArn: 'HOOKGATE_SECRET_ARN',
  /** The reply secret (JSON): what sending replies and calling the model need. Set on the gateway, the turn and the observer functions. */
  replySecretArn: 'HOOKGATE_REPLY_SECRET_ARN',
  /** The tools function (functions/tools.ts) the turn function's sandbox invokes. */
  toolsFunctionName: 'HOOKGATE_TOOLS_FUNCTION_NAME',
  /** The bucket of the session workspace archives (the turn function signs URLs into it). */
  workspaceBucket: 'HOOKGATE_WORKSPACE_BUCKET',
  /** The deployed version (gateway:startup fires once per version). */
  deploymentVersion: 'HOOKGATE_DEPLOYMENT_VERSION',
} as const;
