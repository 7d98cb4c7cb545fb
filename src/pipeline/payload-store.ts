import { createHash } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import type { PayloadRef } from './envelope.ts';
import { resolveClient, type ClientSource } from './lazy-client.ts';
import { HookgateError } from '../errors/hookgate-error.ts';
import { errorText } from '../errors/error-text.ts';

/** Every payload object's key starts with this (the roles' S3 grants are on it). */
export const PAYLOAD_KEY_PREFIX = 'payloads/';

export class PayloadOffloadError extends HookgateError {
  override readonly name = 'PayloadOffloadError';
}

export class PayloadFetchError extends HookgateError {
  override readonly name = 'PayloadFetchError';
}

/**
 * Out-of-line storage for envelope payloads too large for one message (S3; the bucket is
 * topology `PAYLOAD_BUCKET`). Objects are content-checked on the way back (SHA-256). The
 * client may be a loader: the S3 package then loads on the first oversized payload.
 *
 * @example
 * const payloads = new S3PayloadStore(s3, aws.payloadBucket);
 * const ref = await payloads.put(envelopeId, JSON.stringify(payload));
 * const json = await payloads.get(ref);
 */
export class S3PayloadStore {
  constructor(
    private readonly s3: ClientSource<S3Client>,
    readonly bucket: string,
  ) {}

  async put(envelopeId: string, json: string, now: Date = new Date()): Promise<PayloadRef> {
    const body = Buffer.from(json, 'utf8');
    const sha256 = createHash('sha256').update(body).digest('hex');
    // Date prefix so a lifecycle rule can expire old payloads; the id keeps keys unique.
    const key = `${PAYLOAD_KEY_PREFIX}${now.toISOString().slice(0, 10)}/${encodeURIComponent(envelopeId)}.json`;
    try {
      const [s3, { PutObjectCommand }] = await Promise.all([resolveClient(this.s3), import('@aws-sdk/client-s3')]);
      await s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: 'application/json' }));
    } catch (error) {
      throw new PayloadOffloadError(
        `could not store payload of ${envelopeId} in s3://${this.bucket}/${key}: ${errorText(error)}`,
      );
    }
    return { store: 's3', bucket: this.bucket, key, bytes: body.length, sha256 };
  }

  /** The payload JSON text the ref points to; `PayloadFetchError` if missing or altered. */
  async get(ref: PayloadRef): Promise<string> {
    let body: Uint8Array;
    try {
      const [s3, { GetObjectCommand }] = await Promise.all([resolveClient(this.s3), import('@aws-sdk/client-s3')]);
      const out = await s3.send(new GetObjectCommand({ Bucket: ref.bucket, Key: ref.key }));
      body = await out.Body!.transformToByteArray();
    } catch (error) {
      throw new PayloadFetchError(`could not fetch s3://${ref.bucket}/${ref.key}: ${errorText(error)}`);
    }
    const sha256 = createHash('sha256').update(body).digest('hex');
    if (sha256 !== ref.sha256 || body.length !== ref.bytes) {
      throw new PayloadFetchError(`s3://${ref.bucket}/${ref.key} does not match its ref (size or sha256 differ)`);
    }
    return Buffer.from(body).toString('utf8');
  }
}
