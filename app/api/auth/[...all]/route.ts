// better-auth's own routes (sign-up, sign-in, sign-out, sessions, organizations). They keep
// better-auth's origin check and body handling (not the API's request rules); this app only
// refuses, with 400 `bad_request:text`, a path or JSON body the database could not store, and
// gives better-auth's empty 404 a code.
import { getAuth } from "@/lib/auth/auth";
import { parseInput } from "@/lib/http/parse";
import { headersForAuth } from "@/lib/http/proxy";
import { isJsonContentType } from "@/lib/http/request-rules";
import { errorResponse } from "@/lib/http/respond";
import { type NextRouteHandler, withAllMethods } from "@/lib/http/route-handlers";
import { AppError } from "@/lib/kernel/errors";
import { schemas } from "./schema";

const handle: NextRouteHandler = async (request, context) => {
  try {
    parseInput(schemas.GET.params, await context.params);
    if (request.method === "POST") await assertStorableBody(request);
    const auth = await getAuth(request.headers);
    // better-auth reads the client's address (its sign-in limit's bucket) from a header only
    // the app sets.
    const forAuth = withHeaders(request, headersForAuth(request.headers));
    return await withJsonNotFound(await auth.handler(forAuth));
  } catch (error) {
    return errorResponse(error);
  }
};

// The same request with other headers. Built field by field: Next.js's request object cannot be
// passed to the Request constructor (its internals are not the runtime's own).
function withHeaders(request: Request, headers: Headers): Request {
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  // `duplex` is needed to send a streamed body; TypeScript's RequestInit does not list it yet.
  const init: RequestInit & { duplex?: "half" } = {
    method: request.method,
    headers,
    signal: request.signal,
    ...(hasBody ? { body: request.body, duplex: "half" } : {}),
  };
  return new Request(request.url, init);
}

// better-auth answers a path it does not know with an empty 404; the API answers with a code.
async function withJsonNotFound(response: Response): Promise<Response> {
  if (response.status !== 404) return response;
  const text = await response.clone().text();
  return text ? response : errorResponse(new AppError("not_found:route"));
}

// Reads a copy, so better-auth still gets the body; what is not JSON is better-auth's to refuse.
async function assertStorableBody(request: Request): Promise<void> {
  const type = request.headers.get("content-type");
  if (!type || !isJsonContentType(type)) return;
  const text = await request.clone().text();
  const value = parseJsonOrUndefined(text);
  if (value !== undefined) parseInput(schemas.POST.body, value);
}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // better-auth answers malformed JSON itself.
    return undefined;
  }
}

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = withAllMethods({
  GET: handle,
  POST: handle,
});
