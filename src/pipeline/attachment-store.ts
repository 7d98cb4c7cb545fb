import { createHash, randomUUID } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { HookgateError } from '../errors/hookgate-error.ts';
import { resolveClient, type ClientSource } from './lazy-client.ts';
import { PAYLOAD_KEY_PREFIX } from './payload-store.ts';
import { errorText } from '../errors/error-text.ts';

/** Every attachment's key starts with this (inside the payload prefix the roles' grants are on). */
export const ATTACHMENT_KEY_PREFIX = `${PAYLOAD_KEY_PREFIX}attachments/`;

export class AttachmentStoreError extends HookgateError {
  override readonly name = 'AttachmentStoreError';
}

/** Where one stored attachment is. */
export interface StoredObject {
  key: string;
  bytes: number;
  sha256: string;
}

/**
 * Attachments' bytes in the payload bucket, one object per attachment under its session
 * (`payloads/attachments/<session id>/<uuid>/<name>`; the bucket's 14-day lifecycle
 * expires them), and short-lived presigned GET URLs for the hooks (docs/attachments.md).
 *
 * @example
 * const store = new S3AttachmentStore(plane.clients.s3, aws.payloadBucket);
 * const stored = await store.put('sess-1', 'cat.png', bytes, 'image/png');
 * const url = await store.presignedUrl(stored.key, 900);
 */
export class S3AttachmentStore {
  constructor(
    private readonly s3: ClientSource<S3Client>,
    readonly bucket: string,
  ) {}

  async put(sessionId: string, name: string, body: Uint8Array, contentType: string): Promise<StoredObject> {
    const key = `${ATTACHMENT_KEY_PREFIX}${safeSegment(sessionId)}/${randomUUID()}/${safeSegment(name) || 'file'}`;
    const sha256 = createHash('sha256').update(body).digest('hex');
    try {
      const [s3, { PutObjectCommand }] = await Promise.all([resolveClient(this.s3), import('@aws-sdk/client-s3')]);
      await s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
    } catch (error) {
      throw new AttachmentStoreError(`could not store the attachment in s3://${this.bucket}/${key}: ${errorText(error)}`);
    }
    return { key, bytes: body.length, sha256 };
  }

  async get(key: string): Promise<Uint8Array> {
    try {
      const [s3, { GetObjectCommand }] = await Promise.all([resolveClient(this.s3), import('@aws-sdk/client-s3')]);
      const out = await s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return await out.Body!.transformToByteArray();
    } catch (error) {
      throw new AttachmentStoreError(`could not read s3://${this.bucket}/${key}: ${errorText(error)}`);
    }
  }

  /** A GET URL for `key` that stops working after `expiresInSeconds`. */
  async presignedUrl(key: string, expiresInSeconds: number): Promise<string> {
    const [s3, { GetObjectCommand }, { getSignedUrl }] = await Promise.all([
      resolveClient(this.s3),
      import('@aws-sdk/client-s3'),
      import('@aws-sdk/s3-request-presigner'),
    ]);
    return getSignedUrl(s3, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: expiresInSeconds });
  }
}

/** A key segment: no slashes, no control or odd characters, at most 100 characters. */
function safeSegment(value: string): string {
  return value
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 100);
}
