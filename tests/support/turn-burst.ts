// Many turns of one user at once, each in its own workstream: what the rate-limit tests send.

import { userMessage } from "./fixtures";
import type { HttpClient, SignedUpUser } from "./http-client";
import { readSse } from "./sse";

export async function groupWorkstreams(user: SignedUpUser, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await user.client.json<{ id: string }>("/api/workstreams", {
      method: "POST",
      json: { mode: "group", title: `Burst ${i + 1}` },
    });
    if (created.status !== 201) throw new Error(`create workstream: ${created.status}`);
    ids.push(created.body.id);
  }
  return ids;
}

export type BurstAnswer = { status: number; code: string | null };

/**
 * Posts one message to every workstream at the same moment, the i-th through clients[i % n],
 * and answers each response's status and error code. Accepted turns are read to their end, so
 * none is still running when the test tears its database down.
 */
export async function postAtOnce(
  clients: HttpClient[],
  workstreamIds: string[],
): Promise<BurstAnswer[]> {
  return Promise.all(
    workstreamIds.map(async (workstreamId, index) => {
      const client = clients[index % clients.length];
      if (!client) throw new Error("no client");
      const response = await client.fetch(`/api/workstreams/${workstreamId}/messages`, {
        method: "POST",
        json: userMessage(`burst ${index}`),
      });
      if (response.ok) {
        await readSse(response);
        return { status: response.status, code: null };
      }
      const body = (await response.json()) as { error?: { code?: string } };
      return { status: response.status, code: body.error?.code ?? null };
    }),
  );
}

/** How many were accepted, and the distinct answers of the others. */
export function tally(answers: BurstAnswer[]) {
  const accepted = answers.filter((answer) => answer.status === 200).length;
  const refused = [
    ...new Set(
      answers
        .filter((answer) => answer.status !== 200)
        .map((answer) => `${answer.status} ${answer.code}`),
    ),
  ];
  return { accepted, refused };
}
