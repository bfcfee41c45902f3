// The process's file store, chosen by configuration: S3 when S3_BUCKET is set, the local disk
// otherwise. Tests swap it with setFileStore.
import "server-only";
import { config } from "@/lib/config";
import { processSingleton } from "@/lib/kernel/singleton";
import { createLocalStore } from "./local-store";
import { createS3Store } from "./s3-store";
import type { FileStore } from "./storage";

const state = processSingleton<{ store?: FileStore }>("file-store", () => ({}));

export function getFileStore(): FileStore {
  if (!state.store) {
    const { s3, localDir } = config.files;
    state.store = s3.bucket
      ? createS3Store({
          bucket: s3.bucket,
          region: s3.region,
          endpoint: s3.endpoint,
          forcePathStyle: s3.forcePathStyle,
        })
      : createLocalStore(localDir);
  }
  return state.store;
}

/** Replaces the store (tests run both implementations in one process). */
export function setFileStore(store: FileStore): void {
  state.store = store;
}
