-- GET a random code from the file named by CODES_FILE, one code per line.
local codes = {}
for line in io.lines(os.getenv("CODES_FILE")) do codes[#codes + 1] = line end
local suffix = os.getenv("PATH_SUFFIX") or ""
math.randomseed(os.time())
request = function()
  return wrk.format("GET", "/" .. codes[math.random(#codes)] .. suffix)
end
