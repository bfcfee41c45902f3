// Test fixtures over HTTP: a signed-up user with their direct workstream, and message sending.
import { randomUUID } from "node:crypto";
import type { SignedUpUser } from "./http-client";
import { signUp } from "./http-client";

export type Owner = SignedUpUser & { workstreamId: string };

export async function userWithWorkstream(baseUrl: string, name = "Turn Tester"): Promise<Owner> {
  const user = await signUp(baseUrl, name);
  const created = await user.client.json<{ id: string }>("/api/workstreams", {
    method: "POST",
    json: { mode: "direct", agentId: "chief" },
  });
  if (created.status !== 201) throw new Error(`create workstream: ${created.status}`);
  return { ...user, workstreamId: created.body.id };
}

export function userMessage(text: string, id = `m_${randomUUID().slice(0, 12)}`) {
  return { message: { id, role: "user", parts: [{ type: "text", text }] } };
}

export function send(owner: Owner, text: string, id?: string, signal?: AbortSignal) {
  return owner.client.fetch(`/api/workstreams/${owner.workstreamId}/messages`, {
    method: "POST",
    json: userMessage(text, id),
    signal,
  });
}
