-- wrk script: rotate over a list of prepared requests, print a JSON summary.
--
-- Usage: wrk ... -s bench/rotate.lua http://127.0.0.1:PORT -- REQUESTS_FILE
-- REQUESTS_FILE has one request per line, tab-separated:
--   METHOD <TAB> PATH <TAB> BEARER_TOKEN_OR_EMPTY <TAB> JSON_BODY_OR_EMPTY
-- Every request string is built once in init(); request() only picks the next
-- one, so the load generator spends almost nothing per request.

local prepared = {}
local counter = 0
local thread_count = 0

function setup(thread)
  thread:set("thread_index", thread_count)
  thread_count = thread_count + 1
end

function init(args)
  for line in io.lines(args[1]) do
    if line ~= "" then
      local method, target, token, body = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
      local headers = {}
      if token ~= "" then
        headers["Authorization"] = "Bearer " .. token
      end
      if body == "" then
        body = nil
      else
        headers["Content-Type"] = "application/json"
      end
      table.insert(prepared, wrk.format(method, target, headers, body))
    end
  end
  -- Threads start at different places in the list.
  counter = (thread_index or 0) * 37
end

function request()
  counter = counter + 1
  return prepared[(counter % #prepared) + 1]
end

function done(summary, latency, requests)
  local e = summary.errors
  -- errors: socket errors and answers other than 2xx/3xx
  io.write(string.format(
    'BENCH_JSON {"requests": %d, "duration_us": %d, "errors": %d, "p50_us": %d, "p99_us": %d}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
