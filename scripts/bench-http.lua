-- wrk script for scripts/bench-http: PUT each pre-minted AUTHORIZE body once, on its own order.
local bodies = {}
local index = 0

function init(args)
  for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = args[2]
end

function request()
  index = index + 1
  if index > #bodies then index = 1 end -- past the end: replays, answered 400 (counted as errors)
  local path = "/api/rest/version/100/merchant/TESTMERCHANT/order/bench-" .. index .. "/transaction/1"
  return wrk.format("PUT", path, nil, bodies[index])
end

function done(summary, latency, requests)
  io.write(string.format("lua: requests=%d non2xx_or_errors=%d\n", summary.requests, summary.errors.status))
end
