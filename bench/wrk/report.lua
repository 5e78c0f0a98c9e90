-- Shared by every scenario: prints one JSON line wrk's orchestrator parses.
function done(summary, latency, requests)
  local non2xx = summary.errors.status
  io.write(string.format(
    '{"requests":%d,"seconds":%f,"non2xx":%d,"socketErrors":%d,"p50":%f,"p99":%f}\n',
    summary.requests, summary.duration / 1e6, non2xx,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
