-- wrk script for scripts/bench-http: PUT pre-made AUTHORIZE bodies, each request on its own order.
-- Token bodies are used once each (past the end they come round again: replays, answered 400 and
-- counted as errors); a file of one plain-card body serves every request.
local bodies = {}
local index = 0
local prefix = "bench-"

function init(args)
  for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = args[2]
  if args[3] then prefix = args[3] end -- distinct order ids per wrk when two share a database
end

function request()
  index = index + 1
  local path = "/api/rest/version/100/merchant/TESTMERCHANT/order/" .. prefix .. index .. "/transaction/1"
  return wrk.format("PUT", path, nil, bodies[(index - 1) % #bodies + 1])
end

function done(summary, latency, requests)
  io.write(string.format("lua: requests=%d non2xx_or_errors=%d\n", summary.requests, summary.errors.status))
end

local shown = false
function response(status, headers, body)
  if status ~= 201 and not shown then -- the first failure's body, to say what went wrong
    shown = true
    io.write("lua: first non-201 response: " .. status .. " " .. string.sub(body, 1, 300) .. "\n")
  end
end
