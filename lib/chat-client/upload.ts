// Uploading one attachment from the browser. XMLHttpRequest rather than fetch: only it reports
// upload progress, which the composer's chips show as a real progress bar.
import { ERROR_SENTENCES, errorSentence } from "@/lib/kernel/errors";

/** An uploaded file as the server answers it (lib/files/records.ts FileSummary). */
export type UploadedFile = {
  id: string;
  name: string;
  mediaType: string;
  size: number;
  pages: number | null;
};

export type UploadHandle = { done: Promise<UploadedFile>; abort(): void };

export class UploadError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function uploadFile(
  workstreamId: string,
  file: File,
  onProgress: (fraction: number) => void,
): UploadHandle {
  const xhr = new XMLHttpRequest();
  const done = new Promise<UploadedFile>((resolve, reject) => {
    xhr.open("POST", `/api/workstreams/${encodeURIComponent(workstreamId)}/files`);
    xhr.responseType = "json";
    xhr.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener("load", () => {
      const body = xhr.response as
        | (UploadedFile & { error?: undefined })
        | { error?: { code?: string } }
        | null;
      if (xhr.status === 201 && body && "id" in body) {
        onProgress(1);
        resolve(body);
        return;
      }
      const code = (body && "error" in body && body.error?.code) || "internal:server";
      reject(new UploadError(code, errorSentence(code)));
    });
    xhr.addEventListener("error", () =>
      reject(new UploadError("network:failed", "Couldn't reach the server. Try again.")),
    );
    xhr.addEventListener("abort", () => reject(new UploadError("client:aborted", "Removed.")));
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}

/** What the composer says under a chip whose upload failed. */
export function uploadFailureText(error: unknown): string {
  if (error instanceof UploadError) {
    return error.code === "payload_too_large:quota"
      ? ERROR_SENTENCES["payload_too_large:quota"]
      : error.message;
  }
  return ERROR_SENTENCES["internal:server"];
}

/** The path that shows an attachment of the workstream (a redirect to a signed URL). */
export function filePath(workstreamId: string, fileId: string, download = false): string {
  return `/api/workstreams/${encodeURIComponent(workstreamId)}/files/${encodeURIComponent(fileId)}${download ? "?download=1" : ""}`;
}

/** The file id in a message's file part (`file:<id>`), or null. */
export function fileIdOfUrl(url: string): string | null {
  return /^file:(file_[a-f0-9]{32})$/.exec(url)?.[1] ?? null;
}
