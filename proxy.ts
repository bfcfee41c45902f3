// What the app answers before Next.js routes a request. Next's route matcher decodes each path
// segment and, for percent-encoding that is not UTF-8 (`%FF`, a lone surrogate as `%ED%A0%80`),
// throws where no handler can catch it and answers a bare 500; so such an address is refused
// here: 400 `bad_request:path` under /api/, the not-found page elsewhere. Next's own trailing-slash
// redirect is turned off (next.config.ts), because it ran before this file and sent paths such as
// `/api/workstreams/..` to `/api`; pages keep the redirect here, API paths are routed as written.
import { type NextRequest, NextResponse } from "next/server";
import { errorResponse } from "@/lib/http/respond";
import { AppError } from "@/lib/kernel/errors";

// A path no page or route can have (folders starting with "_" are private in the app router),
// so rewriting to it renders the app's not-found page.
const NOWHERE = "/_nowhere";

export function proxy(request: NextRequest): Response | undefined {
  const { pathname } = request.nextUrl;
  const isApi = pathname === "/api" || pathname.startsWith("/api/");
  if (!isUtf8(pathname)) {
    if (isApi) return errorResponse(new AppError("bad_request:path"));
    return NextResponse.rewrite(new URL(NOWHERE, request.url));
  }
  if (!isApi && pathname.length > 1 && pathname.endsWith("/")) {
    // A plain URL: a NextURL would put the trailing slash back when formatted.
    const url = new URL(request.url);
    url.pathname = pathname.replace(/\/+$/, "") || "/";
    return NextResponse.redirect(url, 308);
  }
  return undefined;
}

function isUtf8(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch (error) {
    if (error instanceof URIError) return false;
    throw error;
  }
}

// Only paths that hold a percent sign or end in a slash reach the function; every other request
// skips it.
export const config = {
  matcher: ["/(.*%.*)", "/(.*/)"],
};
