// Local-disk storage under WORKSTREAMS_FILES_DIR (`.data/files`): one file per key. A stored file
// arrives complete (the upload spools and checks it first), and is moved into place with a
// rename, so a reader never sees half an object. URLs are the app's HMAC-signed route.
import "server-only";
import { createReadStream } from "node:fs";
import { copyFile, mkdir, readdir, rename, rm, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { signedFilePath } from "./signing";
import type { FileStore, SignedUrlOptions, StoredObject } from "./storage";

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

export function createLocalStore(root: string): FileStore {
  const base = path.resolve(root);
  const at = (key: string) => {
    const full = path.resolve(base, key);
    // Keys are built from ids; this refuses anything that would leave the root all the same.
    if (!full.startsWith(`${base}${path.sep}`)) throw new Error("storage key outside the root");
    return full;
  };

  async function* walk(dir: string): AsyncIterable<StoredObject> {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) yield* walk(full);
      else if (entry.isFile()) {
        const info = await stat(full).catch(() => null);
        if (!info) continue;
        const key = path.relative(base, full).split(path.sep).join("/");
        yield { key, lastModified: info.mtime, size: info.size };
      }
    }
  }

  return {
    kind: "local",
    spoolDir: path.join(base, ".incoming"),
    async putFile(key, source) {
      const target = at(key);
      await mkdir(path.dirname(target), { recursive: true });
      try {
        await rename(source, target);
      } catch (error) {
        // The spool may sit on another device (a temp dir): copy, then drop the spool.
        if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
        await copyFile(source, target);
        await unlink(source);
      }
    },
    async read(key) {
      const full = at(key);
      try {
        await stat(full);
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      return createReadStream(full);
    },
    async remove(key) {
      await rm(at(key), { force: true });
    },
    async removePrefix(prefix) {
      const dir = at(prefix.replace(/\/$/, ""));
      let count = 0;
      for await (const _ of walk(dir)) count += 1;
      await rm(dir, { recursive: true, force: true });
      return count;
    },
    list(prefix = "") {
      return walk(prefix ? at(prefix.replace(/\/$/, "")) : base);
    },
    async signedUrl(key, options: SignedUrlOptions) {
      const fileId = key.split("/").at(-1) ?? key;
      return signedFilePath(fileId, { ttlMs: options.ttlMs, download: options.download });
    },
  };
}
