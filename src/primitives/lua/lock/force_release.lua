-- RLock::forceUnlock(): the release whoever holds the key (ARGV[1] unused). KEYS and ARGV[2]
-- as the release's; 0 nobody held it, else what the release answers: the waiters are served
-- as by a release of the holder's own.
--@include lock/_release_keys.lua
if redis.call('exists', lock) == 0 then return 0 end
--@include lock/_release_free.lua
