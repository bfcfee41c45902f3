// Labels for attachments that both the server (the context's upload metadata, the offline model)
// and the browser (chips, file cards) show.
export const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

export function isImage(mediaType: string): boolean {
  return mediaType.startsWith("image/");
}

/** A short label for people: "PDF", "PNG image", "Word document", "CSV". */
export function typeLabel(mediaType: string): string {
  switch (mediaType) {
    case "application/pdf":
      return "PDF";
    case DOCX_TYPE:
      return "Word document";
    case "text/markdown":
      return "Markdown";
    case "text/csv":
      return "CSV";
    case "application/json":
      return "JSON";
    case "text/plain":
      return "text";
    default:
      return isImage(mediaType) ? `${mediaType.slice(6).toUpperCase()} image` : mediaType;
  }
}

export function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
