// The closed error vocabulary. Every error text a client can see (an API error body, a turn's
// error chunk, a turn's recorded reason, the admin runs list) is one of these sentences, looked up
// by its stable `type:surface` code. Nothing below this list (database errors, SQL, provider
// bodies, stack traces) ever reaches a client. The client imports this module too, so a new code
// is added here, never spelled inline. Specifics (a limit, a field name) travel as `details`.

export const ERROR_SENTENCES = {
  "bad_request:agent": "There is no such agent.",
  "bad_request:core": "These options do not fit a core workstream.",
  "bad_request:confirmation":
    "Sharing with the whole organization needs your explicit confirmation (confirm: true).",
  "bad_request:core_type": "There is no such core workstream.",
  "bad_request:cursor": "The history cursor does not name a message of this workstream.",
  "bad_request:direct": "A direct workstream takes only an agent: its title is the agent's name.",
  "bad_request:email": "Enter a valid email address.",
  "bad_request:empty_file": "The file is empty.",
  "bad_request:file_part":
    "A file in a message must be an upload of this workstream, sent as its file id.",
  "bad_request:upload": "The upload is not a complete form with one file.",
  "bad_request:empty_message": "The message is empty.",
  "bad_request:include_archived": "includeArchived must be true or false.",
  "bad_request:json": "The request body is not valid JSON.",
  "bad_request:kind": "That kind is not known.",
  "bad_request:limit": "The limit is outside the allowed range.",
  "bad_request:mode": 'mode must be "direct" or "group".',
  "bad_request:offset": "The offset must be a whole number of zero or more.",
  "bad_request:owner": "The owner filter is not valid.",
  "bad_request:path": "The address is not valid: its percent-encoding is not UTF-8.",
  "bad_request:page": "The page is outside the allowed range.",
  "bad_request:paging": "Only standard group workstreams are paged; leave out take and page.",
  "bad_request:q": "The search text is not valid.",
  "bad_request:range_cursor": "The cursor does not name a message of this compacted range.",
  "bad_request:role": "That role is not known.",
  "bad_request:running": "running must be true or false.",
  "bad_request:scope": "That scope is not known.",
  "bad_request:security_mode": 'securityMode must be "ask", "allowlist" or "auto".',
  "bad_request:status": "That status is not known.",
  "bad_request:take": "take is outside the allowed range.",
  "bad_request:text":
    "The text contains characters that cannot be stored (NUL or lone surrogates).",
  "bad_request:title": "A title needs 1 to the allowed number of characters.",
  "bad_request:tool": "There is no such tool.",
  "bad_request:too_long": "A text in the request is longer than allowed.",
  "bad_request:unknown_field": "The request has a field this endpoint does not take.",
  "bad_request:validation": "The request is not valid.",
  "bad_request:workstream_id": "That is not a valid workstream id.",
  "unauthorized:auth": "Sign in to continue.",
  "forbidden:guard": "A guard refused this request.",
  "forbidden:organization": "You are not a member of this organization.",
  "forbidden:origin": "Requests from this origin are not allowed.",
  "forbidden:owner_only": "Only an owner can do this.",
  "forbidden:role": "Your role does not allow this.",
  "forbidden:url_expired": "This link has expired. Open the file again from the conversation.",
  "forbidden:url_signature": "This link is not valid.",
  "not_found:approval": "This approval does not exist.",
  "not_found:turn": "This turn does not exist.",
  "not_found:file": "This file does not exist.",
  "not_found:grant": "This remembered approval does not exist.",
  "not_found:inngest": "Inngest is not configured.",
  "not_found:invitation": "This invitation does not exist.",
  "not_found:job": "This failed job does not exist.",
  "not_found:memory_entry": "This memory note does not exist.",
  "not_found:member": "This member does not exist.",
  "not_found:memory": "This memory does not exist.",
  "not_found:compaction": "This compaction does not exist.",
  "not_found:route": "There is nothing at this address.",
  "not_found:skill": "This skill does not exist.",
  "not_found:workstream": "This workstream does not exist.",
  "method_not_allowed:method": "This endpoint does not accept this method.",
  "conflict:already_member": "This person is already a member.",
  "conflict:approval_answered": "This approval was already answered, or its turn has ended.",
  "conflict:approval_order":
    "Another approval of this turn comes first: answer the approvals in the order they were asked.",
  "conflict:archived": "This workstream is archived.",
  "conflict:core_immutable": "Core workstreams cannot be changed this way.",
  "conflict:direct_immutable": "Direct workstreams cannot be changed this way.",
  "conflict:duplicate_message": "A message with this id was already sent.",
  "conflict:invitation_accepted": "This invitation was already used.",
  "conflict:invitation_canceled": "This invitation was canceled.",
  "conflict:invitation_expired": "This invitation has expired.",
  "conflict:job_retry":
    "This job cannot be retried here: its run is no longer kept, or Inngest runs it (retry it from Inngest's dashboard).",
  "conflict:last_owner": "An organization needs at least one owner.",
  "conflict:memory_exists": "A memory with the same text already exists.",
  "conflict:skill_exists": "A skill with the same name already exists.",
  "conflict:message_id": "A message with this id belongs to another workstream.",
  "conflict:not_archived": "Archive this workstream before deleting it.",
  "conflict:self_removal": "You cannot remove yourself.",
  "conflict:state_version":
    "The workstream state changed since you loaded it. Reload and try again.",
  "conflict:turn_active": "A turn is already running in this workstream. Stop it or wait.",
  "payload_too_large:body": "The request body is too large.",
  "payload_too_large:message": "The message is too long.",
  "payload_too_large:quota":
    "The file is larger than allowed, or your organization has no storage left for it.",
  "unsupported_media_type:body": "Send the request body as application/json.",
  "unsupported_media_type:file":
    "This kind of file cannot be attached: use an image (PNG, JPEG, GIF, WebP), a PDF, a Word document (DOCX) or a text file (.md, .csv, .json, .txt).",
  "limit:state": "That list of the workstream state is full.",
  "rate_limit:turn": "Too many turns in a short time. Wait a moment and try again.",
  "internal:server": "Something went wrong on our side. Please try again.",
  "internal:server_restarted": "The server restarted while this turn was running.",
  "internal:stream": "The live stream was interrupted. Reconnect to continue.",
  // Turn outcomes: shown in the chat, recorded as the turn's reason, listed to admins.
  "guard:refused": "A guard refused this turn.",
  "model:auth": "The model provider refused the API key. Check OPENAI_API_KEY.",
  "model:forbidden": "The model provider does not allow this request with this API key.",
  "model:not_found": "The model provider does not know this model. Check the model setting.",
  "model:rate_limit": "The model provider is rate limiting requests. Try again shortly.",
  "model:unavailable": "The model provider had a server error. Try again shortly.",
  "model:unreachable": "The model server could not be reached. Check OPENAI_BASE_URL.",
  "model:timeout": "The model did not answer in time. Check OPENAI_BASE_URL.",
  "model:bad_request": "The model provider rejected the request.",
  "model:failed": "The model failed to answer.",
  "turn:failed": "The turn failed on our side. Please try again.",
  "turn:step_limit":
    "The agent reached its step limit before finishing. Earlier tool calls may have completed.",
  "turn:stopped": "Stopped.",
  // Background jobs: recorded as an attempt's error and in the failure record.
  "job:timeout": "The job did not finish within its run timeout, so the attempt was stopped.",
  // Warnings: the turn goes on; the chat shows them under the status line.
  "retrieval:failed":
    "Looking up what the agent knows failed, so this answer is written without it.",
  "turn:awaiting_approval": "Waiting for your approval of a tool call.",
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof ERROR_SENTENCES;
export type ErrorType = ErrorCode extends `${infer T}:${string}` ? T : never;

const STATUS: Partial<Record<ErrorType, number>> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  limit: 422,
  rate_limit: 429,
  internal: 500,
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_SENTENCES, value);
}

/** The plain sentence for a code; an unknown code reads as a generic failure. */
export function errorSentence(code: string): string {
  return isErrorCode(code) ? ERROR_SENTENCES[code] : ERROR_SENTENCES["internal:server"];
}

export function statusOf(code: ErrorCode): number {
  return STATUS[code.split(":")[0] as ErrorType] ?? 500;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    options: { details?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(ERROR_SENTENCES[code]);
    this.name = "AppError";
    this.code = code;
    this.status = statusOf(code);
    this.details = options.details;
    this.headers = options.headers;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
