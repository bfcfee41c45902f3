// Inngest's endpoint, served by the SDK's `serve()`: GET is its introspection (how many functions,
// whether keys are set), PUT registers the functions with Inngest, POST runs a step of one (signed
// with the signing key; the SDK refuses anything else with 401). The API's request rules do not
// apply: Inngest is not a browser and signs what it sends. Without Inngest configured the embedded
// runner runs the same functions in-process, so PUT and POST answer 404 `not_found:inngest`.
import { serve } from "inngest/next";
import type { NextRequest } from "next/server";
import { getInngest, inngestConfigured } from "@/inngest/client";
import { errorResponse, json } from "@/lib/http/respond";
import { type NextRouteHandler, withAllMethods } from "@/lib/http/route-handlers";
import { AppError } from "@/lib/kernel/errors";
import { servedJobFunctions } from "@/root/wiring";

type Served = ReturnType<typeof serve>;
let served: Served | undefined;

function handlers(): Served {
  served ??= serve({ client: getInngest(), functions: servedJobFunctions() });
  return served;
}

/**
 * Without Inngest the SDK has no mode to introspect in (it would answer 500 for a missing signing
 * key), so the route says what Inngest's unauthenticated introspection says, and which engine runs.
 */
function embeddedIntrospection(): Response {
  return json({
    // As Inngest counts them: each function and its failure handler.
    function_count: 2 * servedJobFunctions().length,
    has_event_key: false,
    has_signing_key: false,
    mode: "embedded",
  });
}

function method(name: "GET" | "PUT" | "POST"): NextRouteHandler {
  return async (request, context) => {
    try {
      if (!inngestConfigured()) {
        if (name === "GET") return embeddedIntrospection();
        throw new AppError("not_found:inngest");
      }
      return await handlers()[name](request as NextRequest, context as never);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = withAllMethods({
  GET: method("GET"),
  PUT: method("PUT"),
  POST: method("POST"),
});
