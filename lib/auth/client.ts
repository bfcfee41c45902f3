"use client";
// The browser's better-auth client: sign-in, sign-up, sign-out, organization switching.
import { organizationClient } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";

export const authClient = createAuthClient({ plugins: [organizationClient()] });
