-- Checks every limit of one request and, only when all have room, reserves in all of them: one atomic step.
-- Time is Redis's own, so gateway instances with skewed clocks agree.
-- KEYS: two per limit, in order: the limit's main key and its auxiliary key (the token counts of a tpm window).
-- ARGV: request id, tokens to reserve, window ms, parallel lease ms, the offset in ms of the counters' time from
--       Redis's clock (0 but in tests), number of limits, then per limit its kind
--       (r: requests per minute, t: tokens per minute, d: tokens per UTC day, p: requests in flight) and ceiling.
-- Returns: granted (1 or 0), now ms, UTC day, then per limit: remaining, reset ms (when whole again), and when the
--          request would fit: -1 it fits, -2 it never can (its tokens alone exceed the ceiling), else a time in ms.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[5])
local id = ARGV[1]
local tokens = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local lease = tonumber(ARGV[4])
local n = tonumber(ARGV[6])
local day = math.floor(now / 86400000)
local midnight = (day + 1) * 86400000
local out = {0, now, day}
local granted = true

local function newest(key)
  local e = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  if #e > 0 then return tonumber(e[2]) + window end
  return now
end

-- The i-th limit of the request: its kind, its ceiling, its main key and its auxiliary key.
local function limit(i)
  return ARGV[5 + 2 * i], tonumber(ARGV[6 + 2 * i]), KEYS[2 * i - 1], KEYS[2 * i]
end

for i = 1, n do
  local kind, ceiling, main, aux = limit(i)
  local remaining, reset, fits = 0, now, -1
  if kind == 'r' then
    redis.call('ZREMRANGEBYSCORE', main, '-inf', now - window)
    local count = redis.call('ZCARD', main)
    remaining = ceiling - count
    reset = newest(main)
    if count + 1 > ceiling then
      local e = redis.call('ZRANGE', main, count - ceiling, count - ceiling, 'WITHSCORES')
      fits = tonumber(e[2]) + window
    end
  elseif kind == 't' then
    local old = redis.call('ZRANGEBYSCORE', main, '-inf', now - window)
    local sum = tonumber(redis.call('HGET', aux, '_sum') or '0')
    if #old > 0 then
      for _, m in ipairs(old) do
        sum = sum - tonumber(redis.call('HGET', aux, m) or '0')
        redis.call('HDEL', aux, m)
      end
      redis.call('ZREMRANGEBYSCORE', main, '-inf', now - window)
      redis.call('HSET', aux, '_sum', sum)
    end
    remaining = ceiling - sum
    reset = newest(main)
    if sum + tokens > ceiling then
      if tokens > ceiling then
        fits = -2
      else
        local all = redis.call('ZRANGE', main, 0, -1, 'WITHSCORES')
        local left = sum
        fits = reset
        for j = 1, #all, 2 do
          left = left - tonumber(redis.call('HGET', aux, all[j]) or '0')
          if left + tokens <= ceiling then
            fits = tonumber(all[j + 1]) + window
            break
          end
        end
      end
    end
  elseif kind == 'd' then
    local used = tonumber(redis.call('HGET', main, tostring(day)) or '0')
    remaining = ceiling - used
    reset = midnight
    if used + tokens > ceiling then
      if tokens > ceiling then fits = -2 else fits = midnight end
    end
  elseif kind == 'p' then
    redis.call('ZREMRANGEBYSCORE', main, '-inf', now)
    local count = redis.call('ZCARD', main)
    remaining = ceiling - count
    if count + 1 > ceiling then fits = now + 1000 end
  else
    return redis.error_reply('unknown limit kind ' .. tostring(kind))
  end
  if fits ~= -1 then granted = false end
  out[#out + 1] = remaining
  out[#out + 1] = reset
  out[#out + 1] = fits
end

if not granted then
  return out
end

for i = 1, n do
  local kind, ceiling, main, aux = limit(i)
  local at = 3 + 3 * (i - 1)
  if kind == 'r' then
    redis.call('ZADD', main, now, id)
    redis.call('PEXPIRE', main, window + 1000)
    out[at + 1] = out[at + 1] - 1
    out[at + 2] = now + window
  elseif kind == 't' then
    redis.call('ZADD', main, now, id)
    redis.call('HSET', aux, id, tokens)
    local sum = redis.call('HINCRBY', aux, '_sum', tokens)
    redis.call('PEXPIRE', main, window + 1000)
    redis.call('PEXPIRE', aux, window + 1000)
    out[at + 1] = ceiling - sum
    out[at + 2] = now + window
  elseif kind == 'd' then
    local used = redis.call('HINCRBY', main, tostring(day), tokens)
    for _, f in ipairs(redis.call('HKEYS', main)) do
      if tonumber(f) < day - 1 then redis.call('HDEL', main, f) end
    end
    -- yesterday's count stays a day for late corrections of requests admitted before midnight
    redis.call('PEXPIRE', main, midnight + 86400000 - now)
    out[at + 1] = ceiling - used
  elseif kind == 'p' then
    redis.call('ZADD', main, now + lease, id)
    redis.call('PEXPIRE', main, lease + 1000)
    out[at + 1] = out[at + 1] - 1
  end
end
out[1] = 1
return out
