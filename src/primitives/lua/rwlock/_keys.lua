-- A piece the read-write lock's scripts include.
-- KEYS below: write, read, writers, readers, wgrants, rwake, wfence[, self].
local W, R, WQ, RQ, WG, RG, F, self = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8]
