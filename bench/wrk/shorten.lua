-- POST /shorten with a different URL each time.
local n = 0
local thread_id = tostring(math.random(1e9))
request = function()
  n = n + 1
  return wrk.format("POST", "/shorten", { ["content-type"] = "application/json" },
    '{"url":"https://example.com/bench/' .. thread_id .. '/' .. n .. '"}')
end
