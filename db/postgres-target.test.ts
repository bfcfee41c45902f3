import { describe, expect, it } from "vitest";
import { postgresTarget } from "./postgres-target";

describe("postgresTarget", () => {
  it("takes libpq's socket directory out of the URL and gives it to postgres-js as its host", () => {
    const target = postgresTarget(
      "postgres://app:secret@localhost:54329/workstreams?host=/var/run/postgresql&sslmode=disable",
    );
    expect(target.options).toEqual({ host: "/var/run/postgresql" });
    const url = new URL(target.url);
    expect(url.searchParams.has("host")).toBe(false);
    // Everything else stays as written: user, password, port, database and other parameters.
    expect([url.username, url.password, url.port, url.pathname]).toEqual([
      "app",
      "secret",
      "54329",
      "/workstreams",
    ]);
    expect(url.searchParams.get("sslmode")).toBe("disable");
  });

  it("leaves a TCP URL, a host parameter that is not a directory, and an unreadable URL alone", () => {
    for (const url of [
      "postgres://app@db.internal:5432/workstreams",
      "postgres://app@localhost/workstreams?host=db.internal",
      "not a url",
    ]) {
      expect(postgresTarget(url)).toEqual({ url, options: {} });
    }
  });
});
