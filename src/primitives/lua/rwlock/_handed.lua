-- A piece the read-write lock's scripts include.
-- A waiter let in by a release: its lease, from its mark's score m (the waiter's round end
-- plus WAIT_MARK_MS, past now): until it comes back to take its own, a second at most.
local function handed(m) return math.max(math.min(math.floor(tonumber(m) - now), 1000), 1) end
