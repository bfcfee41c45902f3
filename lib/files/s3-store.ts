// S3-compatible storage (AWS S3, MinIO, R2) through the AWS SDK: objects under the configured
// bucket, URLs presigned GETs that carry the response's type and disposition. Credentials come
// the SDK's usual way (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, instance roles).
import "server-only";
import { createReadStream } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { FileStore, StoredObject } from "./storage";
import { contentDisposition } from "./storage";

export type S3StoreOptions = {
  bucket: string;
  region: string;
  endpoint?: string | null;
  forcePathStyle?: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

export function createS3Store(options: S3StoreOptions): FileStore {
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? false,
    // Checksums only where S3 requires them: several S3-compatible servers refuse the SDK's
    // default streaming checksums (aws-chunked bodies).
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    ...(options.credentials ? { credentials: options.credentials } : {}),
  });
  const Bucket = options.bucket;

  async function* listAll(prefix: string): AsyncIterable<StoredObject> {
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket, Prefix: prefix || undefined, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key) {
          yield {
            key: item.Key,
            lastModified: item.LastModified ?? new Date(0),
            size: item.Size ?? 0,
          };
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  return {
    kind: "s3",
    spoolDir: path.join(tmpdir(), "workstreams-uploads"),
    async putFile(key, path, { size, mediaType }) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: key,
          Body: createReadStream(path),
          ContentLength: size,
          ContentType: mediaType,
        }),
      );
    },
    async read(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return (object.Body as NodeJS.ReadableStream | undefined) ?? null;
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === "NoSuchKey") {
          return null;
        }
        throw error;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async removePrefix(prefix) {
      let count = 0;
      let batch: string[] = [];
      const flush = async () => {
        if (!batch.length) return;
        // One request per key: DeleteObjects needs Content-MD5, which not every
        // S3-compatible server accepts the SDK's way; a workstream holds few files.
        for (const Key of batch) await client.send(new DeleteObjectCommand({ Bucket, Key }));
        count += batch.length;
        batch = [];
      };
      for await (const object of listAll(prefix)) {
        batch.push(object.key);
        if (batch.length >= 100) await flush();
      }
      await flush();
      return count;
    },
    list(prefix = "") {
      return listAll(prefix);
    },
    async signedUrl(key, { ttlMs, mediaType, filename, download }) {
      return getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket,
          Key: key,
          ResponseContentType: mediaType,
          ResponseContentDisposition: contentDisposition(filename, download === true),
        }),
        { expiresIn: Math.max(1, Math.floor(ttlMs / 1000)) },
      );
    },
  };
}
