// The two file stores the attachment tests run on: a local directory, and an S3-compatible
// server (s3rver) started on a random port with its own directory and bucket.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { createLocalStore } from "@/lib/files/local-store";
import { createS3Store } from "@/lib/files/s3-store";
import type { FileStore } from "@/lib/files/storage";

export type StoreKind = "local" | "s3";
export type TestStore = { store: FileStore; close(): Promise<void> };

export async function startTestStore(kind: StoreKind): Promise<TestStore> {
  const dir = await mkdtemp(path.join(tmpdir(), `workstreams-files-${kind}-`));
  if (kind === "local") {
    return { store: createLocalStore(dir), close: () => rm(dir, { recursive: true, force: true }) };
  }
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: dir,
    configureBuckets: [{ name: "attachments", configs: [] }],
  });
  const { port } = (await server.run()) as { port: number };
  const store = createS3Store({
    bucket: "attachments",
    region: "us-east-1",
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  return {
    store,
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Every key the store holds. */
export async function storedKeys(store: FileStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of store.list()) keys.push(object.key);
  return keys.sort();
}
