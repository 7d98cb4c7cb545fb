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
  /** Secrets Manager secret holding the platform secrets, model key and `/v1` token as JSON. */
  secretArn: 'HOOKGATE_SECRET_ARN',
  /** The deployed version (gateway:startup fires once per version). */
  deploymentVersion: 'HOOKGATE_DEPLOYMENT_VERSION',
} as const;
