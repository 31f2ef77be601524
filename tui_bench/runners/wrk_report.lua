-- tuibench's wrk script: live request counts while wrk runs, and one JSON summary at the end.
--
-- wrk prints nothing until it exits (and on a pipe even its header waits), but what a script
-- writes to stderr arrives at once. So this script writes, to stderr only:
--
--   tuibench-live <thread> <n> <t>  every LINE_INTERVAL_S per thread: requests that thread has
--                                   issued so far (thread numbers start at 0), and when, in
--                                   seconds of the monotonic clock (CLOCK_MONOTONIC, the
--                                   clock of Python's time.monotonic()). Counted as requests
--                                   go out, so a thread whose connections all wait on slow
--                                   responses stays silent until one returns. Lines a
--                                   twentieth of a second apart place a second's edges to a
--                                   few per cent of its requests; the time on the line keeps
--                                   them placed when the reader falls behind (a busy
--                                   machine), which would otherwise pile a second's requests
--                                   on a later one. Without LuaJIT's ffi there is no <t>:
--                                   whole seconds of os.time() would place nothing.
--   tuibench-summary {...}          once, from done(): compact JSON, times in microseconds;
--                                   its "table" is the latency at a fine set of quantiles,
--                                   [[q, us], ...]: what lets the runs of several hosts be
--                                   merged into one distribution (wrk keeps no histogram
--                                   that a script can read)
--
-- Switches, as script arguments after "--" (wrk hands them to init()):
--
--   wrk -s wrk_report.lua http://127.0.0.1:8080/ -- no-live     no live lines
--   wrk -s wrk_report.lua http://127.0.0.1:8080/ -- no-summary  no summary line
--   wrk -s wrk_report.lua http://127.0.0.1:8080/ -- method PUT  the request's method
--   wrk -s wrk_report.lua http://127.0.0.1:8080/ -- body FILE   its body: FILE's bytes as
--                                                               they are (its Content-Type
--                                                               comes with -H)
--
-- With no-live the script removes its request() hook before wrk looks for it, so wrk sends
-- its static request exactly as it would without a script: the hook then costs nothing.
--
-- No response() hook on purpose: defining one makes wrk parse headers and copy every body
-- into Lua, which slows it down a lot on large bodies.

-- setup() and done() run in wrk's main Lua state, init() and request() in each thread's own
-- state: the only bridge is thread:set()/thread:get(), on the threads kept here.
local threads = {}

function setup(thread)
   -- Called once per thread, in thread order: the only place a thread learns a stable number.
   thread:set("tuibench_thread", #threads)
   table.insert(threads, thread)
end

tuibench_summary = true

-- wrk's Lua is LuaJIT: its ffi reads the monotonic clock to the nanosecond. A wrk built on
-- another Lua has only os.time(), whole seconds: a line per second, placed less well.
local function fine_clock()
   local ok, ffi = pcall(require, "ffi")
   if not ok then
      return nil
   end
   ffi.cdef([[
      typedef struct { long tv_sec; long tv_nsec; } tuibench_timespec;
      int clock_gettime(int clock_id, tuibench_timespec *tp);
   ]])
   local now = ffi.new("tuibench_timespec")
   local CLOCK_MONOTONIC = 1
   return function()
      ffi.C.clock_gettime(CLOCK_MONOTONIC, now)
      return tonumber(now.tv_sec) + tonumber(now.tv_nsec) * 1e-9
   end
end

local request_text
local clock = os.time
local fine = false
local LINE_INTERVAL_S = 1
local issued = 0
local next_check = 1
local stride = 1
local last_line
local last_issued = 0

-- Aim for this many clock reads per line interval of a thread's own progress: often enough
-- that a line is at most a fraction of its interval late, rare enough to cost nothing at
-- 100k req/s.
local CHECKS_PER_LINE = 4

local function live_request()
   issued = issued + 1
   if issued >= next_check then
      local now = clock()
      if now - last_line >= LINE_INTERVAL_S then
         if fine then
            io.stderr:write(string.format("tuibench-live %d %d %.4f\n", tuibench_thread, issued, now))
         else
            io.stderr:write(string.format("tuibench-live %d %d\n", tuibench_thread, issued))
         end
         io.stderr:flush()
         -- Re-size the stride from the rate just seen so that slow runs still report every
         -- interval and fast runs do not read the clock on every request.
         local per_line = (issued - last_issued) * LINE_INTERVAL_S / (now - last_line)
         stride = math.max(1, math.floor(per_line / CHECKS_PER_LINE))
         last_line = now
         last_issued = issued
      end
      next_check = issued + stride
   end
   return request_text
end

local function read_file(path)
   local file = assert(io.open(path, "rb"))
   local data = file:read("*a")
   file:close()
   return data
end

function init(args)
   local live = true
   -- args[0] is the URL; the script's own arguments start at 1.
   local i = 1
   while args[i] do
      local arg = args[i]
      if arg == "no-live" then
         live = false
      elseif arg == "no-summary" then
         tuibench_summary = false
      elseif arg == "method" and args[i + 1] then
         wrk.method = args[i + 1]
         i = i + 1
      elseif arg == "body" and args[i + 1] then
         -- Read once per thread, before wrk builds its request from wrk.method and wrk.body
         -- (with the Content-Length) after init().
         wrk.body = read_file(args[i + 1])
         i = i + 1
      else
         error("wrk_report.lua: unknown argument " .. arg
            .. " (known: no-live, no-summary, method M, body FILE)")
      end
      i = i + 1
   end
   if live then
      -- Built once per thread: wrk.format() per request would dominate the hook's cost.
      request_text = wrk.format()
      local fine_read = fine_clock()
      if fine_read then
         clock, fine, LINE_INTERVAL_S = fine_read, true, 0.05
      end
      last_line = clock()
      request = live_request
      -- wrk calls request() once on thread 0 to check the request before the run starts.
      if tuibench_thread == 0 then
         issued = -1
      end
   end
end

local function json_number(value)
   -- JSON has no nan/inf, and past 2^53 a double no longer holds the integer wrk meant.
   if value ~= value or math.abs(value) >= 2 ^ 53 then
      return "null"
   end
   -- %d would reject a fraction; %.3f keeps sub-microsecond means without noise digits.
   if value == math.floor(value) then
      return string.format("%d", value)
   end
   return string.format("%.3f", value)
end

local PERCENTILES = { "50", "75", "90", "99", "99.9", "99.99" }

-- 1..99 by 1, then ever finer towards the tail, where the figures users gate on lie.
local TABLE = {}
for q = 1, 99 do
   TABLE[#TABLE + 1] = tostring(q)
end
for _, q in ipairs({ "99.1", "99.2", "99.3", "99.4", "99.5", "99.6", "99.7", "99.8", "99.9",
   "99.91", "99.92", "99.93", "99.94", "99.95", "99.96", "99.97", "99.98", "99.99", "99.999" }) do
   TABLE[#TABLE + 1] = q
end

local function latency_json(latency)
   -- With no sample (every request failed or timed out) wrk leaves min at its start value,
   -- 2^64 - 1, above max: report no distribution rather than made-up zeros.
   if latency.min > latency.max then
      return "null"
   end
   local pct = {}
   for i, p in ipairs(PERCENTILES) do
      pct[i] = string.format('"%s":%s', p, json_number(latency:percentile(tonumber(p))))
   end
   local rows = {}
   for i, q in ipairs(TABLE) do
      rows[i] = string.format("[%s,%s]", q, json_number(latency:percentile(tonumber(q))))
   end
   return string.format(
      '{"min":%s,"max":%s,"mean":%s,"stdev":%s,"percentiles":{%s},"table":[%s]}',
      json_number(latency.min),
      json_number(latency.max),
      json_number(latency.mean),
      json_number(latency.stdev),
      table.concat(pct, ","),
      table.concat(rows, ",")
   )
end

function done(summary, latency, requests)
   -- Every thread parsed the same arguments; the first one speaks for all.
   if threads[1] and not threads[1]:get("tuibench_summary") then
      return
   end
   local errors = summary.errors
   io.stderr:write(
      "tuibench-summary ",
      string.format(
         '{"duration_us":%s,"requests":%s,"bytes":%s,'
            .. '"errors":{"connect":%s,"read":%s,"write":%s,"status":%s,"timeout":%s},'
            .. '"latency":%s}\n',
         json_number(summary.duration),
         json_number(summary.requests),
         json_number(summary.bytes),
         json_number(errors.connect),
         json_number(errors.read),
         json_number(errors.write),
         json_number(errors.status),
         json_number(errors.timeout),
         latency_json(latency)
      )
   )
   io.stderr:flush()
end
