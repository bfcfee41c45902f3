// Prepared statements for the app's data statements, on both databases. postgres-js prepares
// only when asked, and drizzle asks only for its own `.prepare()`d queries: the client drizzle
// sees asks for every data statement, so Postgres parses and plans each once per connection.
// Both databases do so inside transactions too: the post-turn hand-over runs in one.
//
// Named prepared statements on PGlite. PGlite's own `query()` parses, analyzes and plans every
// statement again and crosses into WebAssembly six times for it (parse, describe, bind, describe,
// execute, sync). The app's statements have constant text, so each is parsed once per database
// handle under a name, and every later run is one crossing: bind, describe, execute and sync sent
// together. Postgres re-plans a named statement by itself when a table it reads changes.
import "server-only";
import {
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
} from "@electric-sql/pglite";
import type { Sql } from "postgres";
import { processSingleton } from "@/lib/kernel/singleton";
import { bindMessage, DESCRIBE_EXECUTE_SYNC } from "./pglite-bind";

type Prepared = { name: string; paramTypes: number[] };

/** `toClose`: statements to close with the next one prepared (stale, or least recently run). */
type Cache = { byText: Map<string, Prepared>; next: number; toClose: string[] };

/**
 * Statements kept prepared per handle, the least recently run closed first. The app has a few
 * dozen distinct statements; texts that vary (a multi-row insert, an IN list) come and go.
 */
const MAX_PREPARED = 200;

const caches = processSingleton("pglite-prepared", () => new WeakMap<PGlite, Cache>());

function cacheOf(client: PGlite): Cache {
  let cache = caches.get(client);
  if (!cache) {
    cache = { byText: new Map(), next: 0, toClose: [] };
    caches.set(client, cache);
  }
  return cache;
}

/** Postgres's codes for a prepared statement gone stale (a table changed shape, or it is gone). */
const STALE_STATEMENT_CODES = new Set(["0A000", "26000"]);

/**
 * Runs `text` with `params` as a named prepared statement, outside any transaction (a statement
 * inside one goes through the transaction's own `query`). Same results and errors as `query()`.
 */
export async function queryPrepared<T>(
  client: PGlite,
  text: string,
  params: unknown[],
  options?: QueryOptions,
): Promise<Results<T>> {
  const cache = cacheOf(client);
  // The same locks `query()` takes: no other statement, and no transaction, runs in between.
  return client._runExclusiveTransaction(() =>
    client.runExclusive(async () => {
      try {
        return await run<T>(client, cache, text, params, options);
      } catch (error) {
        if (!forgetIfStale(cache, text, error)) throw error;
        // A migration changed a table under a running server: the statement is prepared again.
        return run<T>(client, cache, text, params, options);
      }
    }),
  );
}

/**
 * Runs `text` as a named prepared statement inside the transaction `tx` holds. A statement gone
 * stale fails the transaction (it cannot be retried within it); the next run prepares it again.
 */
async function queryPreparedInTransaction<T>(
  client: PGlite,
  tx: Transaction,
  text: string,
  params: unknown[],
  options?: QueryOptions,
): Promise<Results<T>> {
  // A closed transaction refuses the statement as PGlite's own `query()` does.
  if (tx.closed) return tx.query<T>(text, params, options);
  const cache = cacheOf(client);
  // The transaction holds the transaction lock already; the query lock is taken per statement.
  return client.runExclusive(async () => {
    try {
      return await run<T>(client, cache, text, params, options);
    } catch (error) {
      forgetIfStale(cache, text, error);
      throw error;
    }
  });
}

/** Whether `error` says the statement for `text` is stale; if so it is closed and forgotten. */
function forgetIfStale(cache: Cache, text: string, error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string" || !STALE_STATEMENT_CODES.has(code)) return false;
  const stale = cache.byText.get(text);
  cache.byText.delete(text);
  if (stale) cache.toClose.push(stale.name);
  return true;
}

async function run<T>(
  client: PGlite,
  cache: Cache,
  text: string,
  params: unknown[],
  options?: QueryOptions,
): Promise<Results<T>> {
  let prepared = cache.byText.get(text);
  if (prepared) {
    // Most recently run last: the first in the map is the next to go.
    cache.byText.delete(text);
    cache.byText.set(text, prepared);
  } else {
    const name = `ws_${cache.next++}`;
    if (cache.byText.size >= MAX_PREPARED) {
      const [oldestText, oldest] = cache.byText.entries().next().value as [string, Prepared];
      cache.byText.delete(oldestText);
      cache.toClose.push(oldest.name);
    }
    const closes = cache.toClose
      .splice(0)
      .map((stale) => protocol.serialize.close({ type: "S", name: stale }));
    const described = await client.execProtocolStream(
      Buffer.concat([
        ...closes,
        protocol.serialize.parse({ name, text }),
        protocol.serialize.describe({ type: "S", name }),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false },
    );
    prepared = { name, paramTypes: parse.parseDescribeStatementResults(described) };
    cache.byText.set(text, prepared);
  }
  const { paramTypes } = prepared;
  const serializers = client.serializers;
  const values = params.map((param, i) => {
    if (param === null || param === undefined) return null;
    const serialize = serializers[paramTypes[i] ?? 0];
    return serialize ? serialize(param) : String(param);
  });
  const messages = await client.execProtocolStream(
    Buffer.concat([bindMessage(prepared.name, values), DESCRIBE_EXECUTE_SYNC]),
    { syncToFs: false },
  );
  if (!client.isInTransaction()) await client.syncToFs();
  return parse.parseResults(messages, parsersFor(client, options), {
    ...options,
    parsers: undefined,
  })[0] as Results<T>;
}

/**
 * The type parsers for a statement's results: its own (drizzle passes a few with each of its
 * statements) over the client's. PGlite would copy all of the client's 300-odd parsers into a new
 * object for every result it parses, about 0.09 ms of CPU and a large short-lived object per
 * statement; layered, they are looked up without a copy.
 */
function parsersFor(client: PGlite, options?: QueryOptions): PGlite["parsers"] {
  if (!options?.parsers) return client.parsers;
  return Object.assign(Object.create(client.parsers) as PGlite["parsers"], options.parsers);
}

/** Statements worth keeping prepared: data statements, not DDL or session commands. */
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * The PGlite client as drizzle should see it: its data statements run prepared (see above),
 * inside transactions as well; everything else is the client itself.
 */
export function withPreparedQueries(client: PGlite): PGlite {
  const query = (text: string, params?: unknown[], options?: QueryOptions) =>
    DATA_STATEMENT.test(text)
      ? queryPrepared(client, text, params ?? [], options)
      : client.query(text, params, options);
  const transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    client.transaction((tx) =>
      callback(
        new Proxy(tx, {
          get(target, property) {
            if (property !== "query") return Reflect.get(target, property, target);
            return (text: string, params?: unknown[], options?: QueryOptions) =>
              DATA_STATEMENT.test(text)
                ? queryPreparedInTransaction(client, target, text, params ?? [], options)
                : target.query(text, params, options);
          },
        }),
      ),
    );
  return new Proxy(client, {
    get(target, property) {
      if (property === "query") return query;
      if (property === "transaction") return transaction;
      const value = Reflect.get(target, property, target);
      // PGlite's methods use private fields: they must run on the client itself.
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * The postgres-js client as drizzle should see it: data statements are prepared (postgres-js
 * keeps them per connection, and connections are recycled within the hour), inside transactions
 * as well: the client a transaction or savepoint hands its callback is wrapped the same way.
 */
export function withPreparedStatements<T extends Pick<Sql, "unsafe">>(client: T): T {
  const unsafe = ((text: string, params?: unknown[], options?: { prepare?: boolean }) =>
    client.unsafe(text, params as never[], {
      ...options,
      prepare: DATA_STATEMENT.test(text) || options?.prepare === true,
    })) as Sql["unsafe"];
  // begin(fn) / begin(mode, fn) and savepoint(fn) / savepoint(name, fn): the callback is last.
  const wrapping =
    (method: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === "function") {
        args[last] = (inner: Pick<Sql, "unsafe">) => callback(withPreparedStatements(inner));
      }
      return method(...args);
    };
  return new Proxy(client, {
    get(target, property) {
      if (property === "unsafe") return unsafe;
      const value = Reflect.get(target, property, target);
      if ((property === "begin" || property === "savepoint") && typeof value === "function") {
        return wrapping(value.bind(target));
      }
      return value;
    },
  });
}
