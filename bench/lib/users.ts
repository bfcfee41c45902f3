// Benchmark users: signed up through better-auth's real route, each with its direct workstream
// with Chief (one turn at a time per workstream, so simultaneous turns need one user each).
import { randomUUID } from "node:crypto";
import { Client } from "./http";

export type BenchUser = {
  client: Client;
  email: string;
  workstreamId: string;
  /** The last log offset this user saw in its workstream (where a follower starts). */
  lastOffset?: number;
};

export const PASSWORD = "correct horse battery staple";

let addressCounter = 0;

/** A distinct private address per simulated user (10.0.0.1, 10.0.0.2, …). */
function nextAddress(): string {
  addressCounter++;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

export async function signUpUser(baseUrl: string, label: string): Promise<BenchUser> {
  const client = new Client(baseUrl, nextAddress());
  const email = `bench.${label}.${randomUUID().slice(0, 8)}@example.test`;
  const signUp = await client.json("POST", "/api/auth/sign-up/email", {
    name: `Bench ${label}`,
    email,
    password: PASSWORD,
  });
  if (signUp.status !== 200) {
    throw new Error(
      `sign-up failed: ${signUp.status} ${JSON.stringify(signUp.body).slice(0, 300)}`,
    );
  }
  const created = await client.json<{ id?: string }>("POST", "/api/workstreams", {
    mode: "direct",
    agentId: "chief",
  });
  if ((created.status !== 201 && created.status !== 200) || !created.body?.id) {
    throw new Error(
      `creating the workstream failed: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`,
    );
  }
  return { client, email, workstreamId: created.body.id };
}

/** Signs up `count` users, `parallel` at a time (password hashing is CPU-bound on the server). */
export async function signUpUsers(
  baseUrl: string,
  count: number,
  prefix: string,
  parallel = 4,
): Promise<BenchUser[]> {
  const users: BenchUser[] = new Array(count);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const index = next++;
      if (index >= count) return;
      users[index] = await signUpUser(baseUrl, `${prefix}${index}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
  return users;
}

let messageCounter = 0;

export function userMessage(text: string) {
  messageCounter++;
  return {
    message: {
      id: `bench_${Date.now().toString(36)}_${messageCounter}_${randomUUID().slice(0, 8)}`,
      role: "user" as const,
      parts: [{ type: "text" as const, text }],
    },
  };
}
