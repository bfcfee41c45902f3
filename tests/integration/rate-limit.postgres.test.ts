// The per-user turn rate limit across two server processes on one Postgres: a burst of turns
// of one user, each in its own workstream and split over both servers, opens exactly the limit.
import { describe, expect, it } from "vitest";
import { signUp } from "../support/http-client";
import { serverProcesses } from "../support/server-processes";
import { groupWorkstreams, postAtOnce, tally } from "../support/turn-burst";

const LIMIT = 5;
const servers = serverProcesses();
servers.env.WORKSTREAMS_RATE_LIMIT_TURNS = String(LIMIT);

describe("turn rate limit on two servers", () => {
  it("9.4 a burst of concurrent turns of one user over two servers opens exactly the limit", async () => {
    const [a, b] = await Promise.all([servers.start(), servers.start()]);
    for (const burst of [LIMIT + 1, 2 * LIMIT]) {
      const user = await signUp(a.url, "Burst User");
      const workstreamIds = await groupWorkstreams(user, burst);
      const answers = await postAtOnce([user.client, user.client.at(b.url)], workstreamIds);
      expect({ burst, ...tally(answers) }).toEqual({
        burst,
        accepted: LIMIT,
        refused: ["429 rate_limit:turn"],
      });
    }
  });
});
