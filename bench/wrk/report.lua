-- Shared by every scenario: prints one JSON line wrk's orchestrator parses. Scripts
-- that count lookups answered (mixed.lua) keep them in each thread's lookupsOk.
local threads = {}
function setup(thread)
  threads[#threads + 1] = thread
end
function done(summary, latency, requests)
  local non2xx = summary.errors.status
  local lookupsOk = 0
  for _, thread in ipairs(threads) do
    lookupsOk = lookupsOk + (thread:get("lookupsOk") or 0)
  end
  io.write(string.format(
    '{"requests":%d,"seconds":%f,"non2xx":%d,"socketErrors":%d,"p50":%f,"p99":%f,"lookupsOk":%d}\n',
    summary.requests, summary.duration / 1e6, non2xx,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, lookupsOk))
end
