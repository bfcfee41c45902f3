// better-auth's own routes (sign-up, sign-in, sign-out, sessions, organizations).
import { getAuth } from "@/lib/auth/auth";
import { errorResponse } from "@/lib/http/respond";

async function handle(request: Request): Promise<Response> {
  try {
    return await (await getAuth()).handler(request);
  } catch (error) {
    return errorResponse(error);
  }
}

export const GET = handle;
export const POST = handle;
