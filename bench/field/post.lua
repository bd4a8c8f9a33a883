-- POST /api/v1/orders (the URL's path), each order unique: externalId "b-NONCE-THREAD-COUNTER".
-- Arguments after `--`: TOKEN NONCE TEMPLATE_FILE [key]
--   TEMPLATE_FILE holds the JSON body with the placeholder __EXTERNAL_ID__ (once);
--   "key" adds an Idempotency-Key, unique likewise ("k-NONCE-THREAD-COUNTER").
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")

local headers, nonce, prefix, suffix, with_key
local counter = 0

function init(args)
  headers = { ["Authorization"] = "Bearer " .. args[1], ["Content-Type"] = "application/json" }
  nonce = args[2]
  prefix, suffix = read_file(args[3]):match("^(.*)__EXTERNAL_ID__(.*)$")
  assert(prefix ~= nil, "the template has no __EXTERNAL_ID__")
  with_key = args[4] == "key"
end

function request()
  counter = counter + 1
  local unique = nonce .. "-" .. tid .. "-" .. counter
  if with_key then
    headers["Idempotency-Key"] = "k-" .. unique
  end
  return wrk.format("POST", nil, headers, prefix .. "b-" .. unique .. suffix)
end
