-- wrk -t4 -c50 -d30s -s loadtest/mixed.lua http://localhost:8080
-- Places orders and cancels about a quarter of the resting ones, using the order ids taken from the
-- answers (each wrk thread keeps a bounded queue of its own resting orders). With API keys (ORDERS_LOAD_KEYS, see
-- common.lua) an order is canceled with the key that placed it, which the answer's clientOrderId names.
package.path = package.path .. ";" .. (os.getenv("ORDERS_LOADTEST_DIR") or "loadtest") .. "/?.lua"
require("common")

local resting = {}
local resting_key = {}
local head, tail = 1, 0
local max_resting = 10000

function next_request()
  if tail >= head and math.random(100) <= 30 then
    local id, key = resting[head], resting_key[head]
    resting[head], resting_key[head] = nil, nil
    head = head + 1
    return wrk.format("DELETE", "/api/v1/orders/" .. id, headers_of(key))
  end
  local key = next_key()
  return wrk.format("POST", "/api/v1/orders", headers_of(key), new_order_body(key))
end

function on_response(status, body)
  if status == 201 and string.find(body, '"status":"NEW"', 1, true) and (tail - head) < max_resting then
    local id = string.match(body, '"orderId":(%d+)')
    if id then
      tail = tail + 1
      resting[tail] = id
      if key_headers then
        resting_key[tail] = tonumber(string.match(body, '"clientOrderId":"[^"]*k(%d+)"'))
      end
    end
  end
end
