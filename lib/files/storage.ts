// The storage of attachment bytes behind one small interface, with two real implementations:
// the local disk (./local-store.ts, the embedded default) and any S3-compatible store
// (./s3-store.ts). Keys are `<organization>/<workstream>/<file>`; nothing is served from storage
// without an authorized request or a signed, expiring URL (./signing.ts, the S3 presigner).

export type StoredObject = { key: string; lastModified: Date; size: number };

export type SignedUrlOptions = {
  /** How long the URL stays valid. */
  ttlMs: number;
  mediaType: string;
  /** Named in Content-Disposition: inline for viewing, attachment for a download. */
  filename: string;
  download?: boolean;
};

export interface FileStore {
  readonly kind: "local" | "s3";
  /** Where uploads are spooled while they arrive (beside the files, so moving one in is a rename). */
  readonly spoolDir: string;
  /** Stores the file at `path` (a complete, checked upload on local disk) under `key`. */
  putFile(key: string, path: string, options: { size: number; mediaType: string }): Promise<void>;
  /** The object's bytes as a stream; null when there is no such object. */
  read(key: string): Promise<NodeJS.ReadableStream | null>;
  remove(key: string): Promise<void>;
  /** Removes every object under `prefix` (ending in "/"); resolves with how many went. */
  removePrefix(prefix: string): Promise<number>;
  /** Every object, for the reconciler: keys and ages only. */
  list(prefix?: string): AsyncIterable<StoredObject>;
  /** A URL that serves the object until it expires, without a session. */
  signedUrl(key: string, options: SignedUrlOptions): Promise<string>;
}

export function storageKey(parts: {
  organizationId: string;
  workstreamId: string;
  fileId: string;
}): string {
  return `${parts.organizationId}/${parts.workstreamId}/${parts.fileId}`;
}

export function workstreamPrefix(organizationId: string, workstreamId: string): string {
  return `${organizationId}/${workstreamId}/`;
}

/** A Content-Disposition header value with the name in both the plain and the UTF-8 forms. */
export function contentDisposition(filename: string, download: boolean): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${download ? "attachment" : "inline"}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
