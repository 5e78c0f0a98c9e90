/**
 * How the embedded server is run. Passed on its command line at every start
 * rather than written into the data folder, so a newer runtime's settings apply
 * to an existing cluster without editing its files.
 */
export type Durability = "durable" | "disposable";

export function serverSettings(port: number, durability: Durability): string[] {
  const settings: Record<string, string | number> = {
    // Loopback only, and no Unix socket: nothing outside this machine can reach it,
    // and no socket path (limited to ~100 bytes) depends on where the data lives.
    listen_addresses: "127.0.0.1",
    port,
    unix_socket_directories: "",
    // A small footprint for a development machine or a small VPS: the working set of
    // an app like this fits easily, and the OS page cache holds the rest of the data.
    // PostgreSQL's default is 128MB, most of which an idle app never touches.
    shared_buffers: "16MB",
    // The runtime's pools are bounded by DATABASE_MAX_CONNECTIONS (40 by default), and
    // the app's own clients (drizzle's pool: 10) and the operators' commands come on top.
    max_connections: durability === "durable" ? 100 : 300,
    // One background I/O worker instead of three: fewer idle processes.
    io_workers: 1,
    // Query compilation pays off only for long analytical queries, and costs memory.
    jit: "off",
    // Dates computed in SQL (now()::date) mean the same day on every machine.
    timezone: "UTC",
    log_timezone: "UTC",
  };
  if (durability === "disposable") {
    // Test clusters are thrown away after the run: skip the work that makes data
    // survive a power loss. Never used for the data a user keeps.
    Object.assign(settings, { fsync: "off", synchronous_commit: "off", full_page_writes: "off" });
  }
  return Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`]);
}
