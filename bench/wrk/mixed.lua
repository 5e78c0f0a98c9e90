-- Mostly lookups of random codes from CODES_FILE, with a share of shortens
-- (SHORTEN_SHARE) and of stats (STATS_SHARE), each a fraction of all requests.
local lookups, stats = {}, {}
local shortenShare, statsShare = 0, 0
local n = 0
local thread_id = tostring(math.random(1e9))
init = function()
  shortenShare = tonumber(os.getenv("SHORTEN_SHARE")) or 0
  statsShare = tonumber(os.getenv("STATS_SHARE")) or 0
  for line in io.lines(os.getenv("CODES_FILE")) do
    lookups[#lookups + 1] = wrk.format("GET", "/" .. line)
    stats[#stats + 1] = wrk.format("GET", "/" .. line .. "/stats")
  end
  math.randomseed(os.time() + tonumber(thread_id))
end
request = function()
  local r = math.random()
  if r < shortenShare then
    n = n + 1
    return wrk.format("POST", "/shorten", { ["content-type"] = "application/json" },
      '{"url":"https://example.com/mixed/' .. thread_id .. '/' .. n .. '"}')
  elseif r < shortenShare + statsShare then
    return stats[math.random(#stats)]
  end
  return lookups[math.random(#lookups)]
end
-- Only lookups count clicks, so the orchestrator needs their number apart. Responses
-- do not say which request they answer (connections interleave), but a lookup's
-- JSON answer is the only {"url": ...} one; report.lua sums lookupsOk over threads.
lookupsOk = 0
response = function(status, headers, body)
  if status == 200 and body:sub(1, 7) == '{"url":' then
    lookupsOk = lookupsOk + 1
  end
end
