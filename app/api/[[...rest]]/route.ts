// The API's fallback: a path under /api/ that no route names answers 404 `not_found:route` in the
// API's JSON error shape, for every method, instead of Next's HTML not-found page. Nothing is read
// (no body, no session): there is nothing here to authorize.

import { errorResponse } from "@/lib/http/respond";
import { AppError } from "@/lib/kernel/errors";

async function notFound(): Promise<Response> {
  return errorResponse(new AppError("not_found:route"));
}

export {
  notFound as DELETE,
  notFound as GET,
  notFound as HEAD,
  notFound as OPTIONS,
  notFound as PATCH,
  notFound as POST,
  notFound as PUT,
};
