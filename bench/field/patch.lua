-- PATCH /api/v1/orders/{PREFIX}{i} over COUNT existing orders, round-robin (each thread starting
-- elsewhere), so that concurrent PATCHes seldom meet on one order's version. Each PATCH sets
-- `metadata` to a value never sent before, so each one changes the order and is written.
-- Arguments after `--`: TOKEN NONCE PREFIX COUNT
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")

local headers, nonce, prefix, count
local counter = 0

function init(args)
  headers = { ["Authorization"] = "Bearer " .. args[1], ["Content-Type"] = "application/json" }
  nonce = args[2]
  prefix = args[3]
  count = tonumber(args[4])
end

function request()
  counter = counter + 1
  local i = (counter + (tid - 1) * 7919) % count
  local body = '{"metadata":{"bench":"' .. nonce .. "-" .. tid .. "-" .. counter .. '"}}'
  return wrk.format("PATCH", prefix .. i, headers, body)
end
