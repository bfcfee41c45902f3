// Spawns tests/support/serve.ts as a separate server process and waits until it listens.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

export type ChildServer = {
  url: string;
  process: ChildProcess;
  output: () => string;
  kill(signal?: NodeJS.Signals): Promise<void>;
};

export function spawnServer(env: Record<string, string>): Promise<ChildServer> {
  const child = spawn(
    process.execPath,
    // react-server: the condition under which `server-only` lets a server module load.
    ["--conditions=react-server", "--import", "tsx", path.resolve("tests/support/serve.ts")],
    {
      env: {
        ...process.env,
        NODE_ENV: "test",
        WORKSTREAMS_SEED_DEMO: "0",
        BETTER_AUTH_SECRET: "test-secret-test-secret-test-secret-123",
        WORKSTREAMS_TURN_LEASE_RENEW_MS: "500",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const onData = (data: Buffer) => {
      output += data.toString();
      const match = /LISTENING (\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({
          url: match[1],
          process: child,
          output: () => output,
          kill: async (signal = "SIGKILL") => {
            if (child.exitCode === null) child.kill(signal);
            await exited;
          },
        });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`server exited with ${code}:\n${output}`), { code, output }));
    });
  });
}
