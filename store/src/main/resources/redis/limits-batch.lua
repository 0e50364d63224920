
-- The driver of limits-batch: the settle and reserve scripts above, wrapped as functions of (KEYS, ARGV), run
-- in one call: first the settlements this instance queued, in order, then (when asked) one check-and-reserve,
-- so a request's settlement rides along with the next request's check instead of costing a round trip.
-- ARGV: number of settlements, then per settlement: its number of keys, its number of arguments, its arguments;
--       then 'reserve' and the reserve script's arguments, or nothing.
-- KEYS: each settlement's keys in order, then the reserve script's keys.
-- Returns: the reserve script's answer, or 1 when there was no check.
local ki, ai = 0, 2
local settlements = tonumber(ARGV[1])
for s = 1, settlements do
  local nk = tonumber(ARGV[ai])
  local na = tonumber(ARGV[ai + 1])
  settle({unpack(KEYS, ki + 1, ki + nk)}, {unpack(ARGV, ai + 2, ai + 1 + na)})
  ki = ki + nk
  ai = ai + 2 + na
end
if ARGV[ai] == 'reserve' then
  return reserve({unpack(KEYS, ki + 1, #KEYS)}, {unpack(ARGV, ai + 1, #ARGV)})
end
return 1
