-- wrk -t4 -c50 -d30s -s loadtest/order-submission.lua http://localhost:8080
-- Varied LIMIT and MARKET orders on BTCUSD and ETHUSD, both sides, around a mid price so that a
-- realistic share trades, with a clientOrderId unique per run and wrk thread. done() prints the
-- status-code counts. Set ORDERS_ACK_DIR to record the clientOrderId of every 201 (run.sh does), and
-- ORDERS_LOAD_KEYS to a file of API key secrets when the service asks for keys (run.sh makes one; see common.lua).
package.path = package.path .. ";" .. (os.getenv("ORDERS_LOADTEST_DIR") or "loadtest") .. "/?.lua"
require("common")

function next_request()
  local key = next_key()
  return wrk.format("POST", "/api/v1/orders", headers_of(key), new_order_body(key))
end
