-- wrk script for bench/load/run.sh: POSTs one fixed body and writes a one-line JSON summary.
--
--   BENCH_BODY  request body file (required)
--   BENCH_OUT   where to write the summary (default: stdout)
--
--   BENCH_ADDRS comma-separated host:port of several gateway instances: wrk's threads are given to them in
--               turn (so connections are spread evenly); unset or empty: every thread uses the URL's address
--
-- Headers (Authorization for the gateway) come from wrk's -H. No response() callback, so wrk stays on
-- its fast path; non-2xx answers are counted by wrk itself (err_status).

local path = assert(os.getenv("BENCH_BODY"), "BENCH_BODY is required")
local f = assert(io.open(path, "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"

local addrs
local threads = 0
function setup(thread)
  local list = os.getenv("BENCH_ADDRS")
  if not list or list == "" then
    return
  end
  if not addrs then
    addrs = {}
    for hp in string.gmatch(list, "[^,]+") do
      local host, port = hp:match("^(.*):(%d+)$")
      local addr = wrk.lookup(host, port)[1]
      assert(addr, "cannot resolve " .. hp)
      addrs[#addrs + 1] = addr
    end
  end
  thread.addr = addrs[threads % #addrs + 1]
  threads = threads + 1
end

function done(summary, latency, requests)
  local e = summary.errors
  local line = string.format(
    '{"requests":%d,"duration_s":%.3f,"rps":%.1f,"bytes":%d,"lat_mean_us":%.1f,"lat_max_us":%d,' ..
    '"p50_us":%d,"p90_us":%d,"p99_us":%d,"p999_us":%d,' ..
    '"err_connect":%d,"err_read":%d,"err_write":%d,"err_status":%d,"err_timeout":%d}',
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6), summary.bytes,
    latency.mean, latency.max,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    e.connect, e.read, e.write, e.status, e.timeout)
  local out = os.getenv("BENCH_OUT")
  if out and out ~= "" then
    local o = assert(io.open(out, "w"))
    o:write(line, "\n")
    o:close()
  else
    io.write(line, "\n")
  end
end
