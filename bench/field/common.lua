-- Shared by the field benchmark's wrk scripts (loaded with dofile from $BENCH_LUA_DIR).
--
-- Each wrk thread runs the script in a Lua state of its own; setup() runs in the main state once per
-- thread and gives each a number (`tid`), so that what a thread makes unique stays unique across
-- threads. The harness passes a nonce of its own per wrk run, so warm-up and measured runs, and
-- rounds, never repeat an id.
--
-- With BENCH_STATUSES=1 every answer's status is counted and printed at the end ("status 409: 12"):
-- a diagnostic, off by default because a response() callback makes wrk hand every answer to Lua,
-- which costs the client (and so the shared cores) more.

local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end

if os.getenv("BENCH_STATUSES") == "1" then
  statuses = {}

  function response(status, headers, body)
    statuses[status] = (statuses[status] or 0) + 1
  end

  function done(summary, latency, requests)
    local all = {}
    for _, thread in ipairs(threads) do
      for status, count in pairs(thread:get("statuses") or {}) do
        all[status] = (all[status] or 0) + count
      end
    end
    for status, count in pairs(all) do
      io.write(string.format("status %d: %d\n", status, count))
    end
  end
end

-- Reads a whole file (the order body template).
function read_file(path)
  local file = assert(io.open(path, "rb"))
  local text = file:read("*a")
  file:close()
  return text
end
