-- A piece the releases include: their KEYS by name (lock/release.lua says what they are).
local lock, grants, waiters, fence, wakes = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
