-- A piece the read-write lock's scripts include.
-- The server's clock in ms, when the script began.
--@include lib/clock_ms.lua
local now = clock_ms()
