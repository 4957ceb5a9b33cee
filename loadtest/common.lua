-- Shared by the wrk scripts: per-thread ids, API keys, status counting, the record of acknowledged orders and
-- the report printed by done(). Each script defines next_request() and may define on_response().
--
-- API keys: ORDERS_LOAD_KEYS names a file of secrets, one a line (run.sh writes it). Each request then authenticates
-- with one of them, picked at random, so every connection acts for many accounts, and names no accountId (the
-- key's account is the order's). Without it, requests carry no key and name accounts acct-<thread>-<1..50>, for a
-- service with ORDERS_AUTH=none.

local threads = {}
local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("tid", thread_count)
  table.insert(threads, thread)
end

function init(args)
  run_id = os.getenv("ORDERS_RUN_ID") or tostring(os.time())
  math.randomseed(tid * 7919 + os.time())
  seq = 0
  statuses = {}
  acked = 0
  local ack_dir = os.getenv("ORDERS_ACK_DIR")
  if ack_dir then
    ack_file = io.open(ack_dir .. "/acked-" .. tid .. ".txt", "w")
  end
  wrk.headers["Content-Type"] = "application/json"
  key_headers = nil
  local keys_path = os.getenv("ORDERS_LOAD_KEYS")
  if keys_path and keys_path ~= "" then
    local file = assert(io.open(keys_path, "r"), "cannot read ORDERS_LOAD_KEYS " .. keys_path)
    key_headers = {}
    for line in file:lines() do
      local secret = string.match(line, "^%s*(%S+)%s*$")
      if secret then
        -- one headers table per key, made once; wrk.format sets Host and Content-Length in it on each use
        table.insert(key_headers, { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. secret })
      end
    end
    file:close()
    assert(#key_headers > 0, "ORDERS_LOAD_KEYS " .. keys_path .. " holds no secret")
  end
end

-- The key of the next request: an index into key_headers, or nil without keys.
function next_key()
  if key_headers then
    return math.random(#key_headers)
  end
  return nil
end

-- The headers of a request made with key (nil: wrk.headers, no key).
function headers_of(key)
  if key then
    return key_headers[key]
  end
  return nil
end

-- Instruments, the mid price each trades around, and quantities at the lot's scale.
instruments = {
  { symbol = "BTCUSD", mid = 50000.00, step = 0.50, quantities = { "0.0010", "0.0050", "0.0100", "0.0500", "0.1000" } },
  { symbol = "ETHUSD", mid = 3000.00,  step = 0.05, quantities = { "0.010", "0.050", "0.100", "0.500", "1.000" } },
}

-- A varied new order: 10% MARKET, else LIMIT within a few steps of the mid on both sides of it, so
-- that a realistic share trades; mostly GTC, some IOC and FOK, a few postOnly. With a key (an index into
-- key_headers) the body names no account and its clientOrderId ends in "k<key>", so that an answer tells which key
-- placed the order; without, it names one of this thread's accounts.
function new_order_body(key)
  seq = seq + 1
  local inst = instruments[math.random(#instruments)]
  local side = (math.random(2) == 1) and "BUY" or "SELL"
  local account, client_order_id
  if key then
    account = ""
    client_order_id = string.format("w%s-%d-%dk%d", run_id, tid, seq, key)
  else
    account = string.format('"accountId":"acct-%d-%d",', tid, math.random(50))
    client_order_id = string.format("w%s-%d-%d", run_id, tid, seq)
  end
  local quantity = inst.quantities[math.random(#inst.quantities)]
  if math.random(10) == 1 then
    return string.format('{%s"clientOrderId":"%s","symbol":"%s","side":"%s","type":"MARKET","quantity":"%s"}',
      account, client_order_id, inst.symbol, side, quantity)
  end
  -- buys mostly below the mid, sells mostly above it; the overlap trades
  local offset = math.random(-3, 12) * inst.step
  local price = (side == "BUY") and (inst.mid - offset) or (inst.mid + offset)
  local r = math.random(100)
  local tif, post_only = "GTC", "false"
  if r <= 10 then tif = "IOC" elseif r <= 15 then tif = "FOK" elseif r <= 20 then post_only = "true" end
  return string.format('{%s"clientOrderId":"%s","symbol":"%s","side":"%s","type":"LIMIT","timeInForce":"%s","postOnly":%s,"price":"%.2f","quantity":"%s"}',
    account, client_order_id, inst.symbol, side, tif, post_only, price, quantity)
end

function request()
  return next_request()
end

-- Counts one order's answer; a 201's clientOrderId (the first in order_json) goes to the ack file.
function count_answer(status, order_json)
  statuses[status] = (statuses[status] or 0) + 1
  if status == 201 then
    acked = acked + 1
    if ack_file then
      local id = string.match(order_json, '"clientOrderId":"([^"]+)"')
      if id then
        ack_file:write(id, "\n")
        if acked % 1000 == 0 then ack_file:flush() end
      end
    end
  end
end

function response(status, headers, body)
  count_answer(status, body)
  if on_response then on_response(status, body) end
end

function done(summary, latency, requests)
  local totals = {}
  for _, thread in ipairs(threads) do
    local counts = thread:get("statuses")
    for status, count in pairs(counts) do
      totals[status] = (totals[status] or 0) + count
    end
  end
  local non2xx = 0
  io.write("status codes:\n")
  for status, count in pairs(totals) do
    io.write(string.format("  %d: %d\n", status, count))
    if status < 200 or status > 299 then non2xx = non2xx + count end
  end
  io.write(string.format("RESULT requests=%d non2xx=%d socket_errors=%d p50_us=%d p90_us=%d p99_us=%d max_us=%d mean_us=%d\n",
    summary.requests, non2xx,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
  io.write(string.format("RESULT_201 %d\n", totals[201] or 0))
end
