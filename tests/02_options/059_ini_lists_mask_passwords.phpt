--TEST--
phpinfo() masks the passwords of every DSN in rlock.servers, rlock.cluster and rlock.sentinel too
--EXTENSIONS--
rlock
--INI--
pcre.jit=0
rlock.servers="redis://:s3cret1@127.0.0.1:7001, redis://user:s3cret2@127.0.0.1:7002/1,redis://127.0.0.1:7003"
rlock.sentinel="redis://:s3cret3@127.0.0.1:26379"
--FILE--
<?php
ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
var_dump(str_contains($info, 's3cret'));
preg_match_all('/^rlock\.(servers|sentinel) => (.*)$/m', $info, $m);
echo implode("\n", $m[0]), "\n";
?>
--EXPECT--
bool(false)
rlock.sentinel => redis://:***@127.0.0.1:26379 => redis://:***@127.0.0.1:26379
rlock.servers => redis://:***@127.0.0.1:7001, redis://user:***@127.0.0.1:7002/1,redis://127.0.0.1:7003 => redis://:***@127.0.0.1:7001, redis://user:***@127.0.0.1:7002/1,redis://127.0.0.1:7003
