-- wrk -t2 -c16 -d30s -s loadtest/batch.lua http://localhost:8080
-- Batches of ORDERS_LOAD_BATCH_SIZE (default 20, the most a batch may hold) varied orders per request, as
-- order-submission.lua makes them, to POST /api/v1/orders/batch. Each order of a batch is counted as a single
-- request's answer would be: its result's status goes into the status counts, and the clientOrderId of every order
-- answered 201 is recorded (ORDERS_ACK_DIR), so run.sh's zero-loss check reads the same as for single orders.
-- SCRIPT=batch.lua loadtest/run.sh PROFILE runs it with that check.
package.path = package.path .. ";" .. (os.getenv("ORDERS_LOADTEST_DIR") or "loadtest") .. "/?.lua"
require("common")

local batch_size = tonumber(os.getenv("ORDERS_LOAD_BATCH_SIZE") or "20")

function next_request()
  local key = next_key()
  local orders = {}
  for i = 1, batch_size do
    orders[i] = new_order_body(key)
  end
  return wrk.format("POST", "/api/v1/orders/batch", headers_of(key), '{"orders":[' .. table.concat(orders, ",") .. "]}")
end

-- One count per order of the batch (the request's own status when the batch as a whole was refused).
function response(status, headers, body)
  if status ~= 200 then
    count_answer(status, "")
    return
  end
  -- each result is {"status":N,"order":{...,"clientOrderId":"...",...}} or {"status":N,"error":{...}}
  for result_status, rest in string.gmatch(body, '{"status":(%d+),(.-)}}') do
    count_answer(tonumber(result_status), rest)
  end
end
