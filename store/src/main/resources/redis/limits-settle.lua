-- Closes one granted request: its tokens become the actual count in each token limit, and it leaves the parallel
-- sets; its entry in the request windows stays. With mode 'release' it is undone entirely instead.
-- KEYS: as for limits-reserve.lua. ARGV: mode (settle | release), request id, actual tokens, reserved tokens,
--       the UTC day it was reserved in, number of limits, then each limit's kind.
local mode = ARGV[1]
local id = ARGV[2]
local actual = tonumber(ARGV[3])
local reserved = tonumber(ARGV[4])
local day = ARGV[5]
local n = tonumber(ARGV[6])
for i = 1, n do
  local kind = ARGV[6 + i]
  local main = KEYS[2 * i - 1]
  local aux = KEYS[2 * i]
  if kind == 'r' then
    if mode == 'release' then redis.call('ZREM', main, id) end
  elseif kind == 't' then
    local old = redis.call('HGET', aux, id)
    if old then
      if mode == 'release' then
        redis.call('HINCRBY', aux, '_sum', -tonumber(old))
        redis.call('HDEL', aux, id)
        redis.call('ZREM', main, id)
      else
        redis.call('HINCRBY', aux, '_sum', actual - tonumber(old))
        redis.call('HSET', aux, id, actual)
      end
    end
  elseif kind == 'd' then
    if redis.call('HEXISTS', main, day) == 1 then
      if mode == 'release' then
        redis.call('HINCRBY', main, day, -reserved)
      else
        redis.call('HINCRBY', main, day, actual - reserved)
      end
    end
  elseif kind == 'p' then
    redis.call('ZREM', main, id)
  end
end
return 1
