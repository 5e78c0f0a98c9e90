// A server process reduced to its stop, spawned by stop-signals.test.ts, with a library
// that handles the stop signals itself the way Apollo Server does: on SIGTERM or SIGINT it
// stops, removes its listeners (argv[2] "remove-all": every listener of the signal, the
// runtime's too) and sends the signal to the process again. argv[2] "none": no such
// library. The runtime's stop "drains" until a line arrives on stdin, so the test decides
// when it ends: after it has seen the second signal handled.
import { createInterface } from "node:readline";
import { stopAndExit, watchStopSignals } from "../internal/server/lifecycle/shutdown.ts";

const library = process.argv[2] as "reraise" | "remove-all" | "none";
const stopRequested = watchStopSignals();

const stopSignals = ["SIGTERM", "SIGINT"] as const;
const librarysStop = async (signal: NodeJS.Signals) => {
  for (const s of stopSignals) {
    if (library === "remove-all") process.removeAllListeners(s);
    else process.off(s, librarysStop);
  }
  await new Promise((resolve) => setTimeout(resolve, 10)); // the library stopping its own work
  console.log(`library: stopped, sending ${signal} again`);
  process.kill(process.pid, signal);
};
if (library !== "none") for (const s of stopSignals) process.on(s, librarysStop);

const lines = createInterface({ input: process.stdin });
const finishDraining = new Promise<void>((resolve) => lines.once("line", () => resolve()));
console.log("ready");
void stopRequested.then(() =>
  stopAndExit(async () => {
    await finishDraining;
    console.log("drained");
  }),
);
