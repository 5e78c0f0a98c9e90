-- GET a random code from the file named by CODES_FILE, one code per line. The
-- requests are formatted once per thread, in init (after wrk has set the Host
-- header), so the load generator spends its time sending, not building strings.
local requests = {}
init = function()
  local suffix = os.getenv("PATH_SUFFIX") or ""
  for line in io.lines(os.getenv("CODES_FILE")) do
    requests[#requests + 1] = wrk.format("GET", "/" .. line .. suffix)
  end
  math.randomseed(os.time())
end
request = function()
  return requests[math.random(#requests)]
end
