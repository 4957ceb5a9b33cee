-- wrk -t4 -c50 -d30s -s loadtest/mixed.lua http://localhost:8080
-- Places orders and cancels about a quarter of the resting ones, using the order ids taken from the
-- answers (each wrk thread keeps a bounded queue of its own resting orders).
package.path = package.path .. ";" .. (os.getenv("ORDERS_LOADTEST_DIR") or "loadtest") .. "/?.lua"
require("common")

local resting = {}
local head, tail = 1, 0
local max_resting = 10000

function next_request()
  if tail >= head and math.random(100) <= 30 then
    local id = resting[head]
    resting[head] = nil
    head = head + 1
    return wrk.format("DELETE", "/api/v1/orders/" .. id)
  end
  return wrk.format("POST", "/api/v1/orders", nil, new_order_body())
end

function on_response(status, body)
  if status == 201 and string.find(body, '"status":"NEW"', 1, true) and (tail - head) < max_resting then
    local id = string.match(body, '"orderId":(%d+)')
    if id then
      tail = tail + 1
      resting[tail] = id
    end
  end
end
