-- GET of a fixed path (the URL's) with a bearer token: the list, one order, a short link, the script.
-- Arguments after `--`: TOKEN (or "-" for none).
-- No request() function: wrk formats the request once and sends the same bytes every time.
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")

function init(args)
  if args[1] ~= nil and args[1] ~= "-" then
    wrk.headers["Authorization"] = "Bearer " .. args[1]
  end
end
