--TEST--
Names never tear: ten processes churning long keys through an 8-key table (claims racing evictions of the same slot) never show a name nobody used
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
rlock.stats_keys=8
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['reentrant' => false]);
$p = $o['prefix'];
// a key that says what it should read: its writer, its number, then a body made of both,
// as long as a name can be (a torn name mixes two bodies, or a body and a number)
$name = fn (int $c, int $i): string => "$c-$i:" . str_repeat(substr(md5("$c-$i"), 0, 8), 18);
$rounds = getenv('USE_ZEND_ALLOC') === '0' ? 300 : 6000;
$kids = [];
for ($c = 0; $c < 10; $c++) {
    if (($pid = pcntl_fork()) === 0) {
        for ($i = 0; $i < $rounds; $i++) {
            $l = new RLock($name($c, $i), $o);
            $l->tryLock();
            $l->unlock();
        }
        exit(0);
    }
    $kids[] = $pid;
}
$torn = $seen = $reads = 0;
$examples = [];
$look = function () use ($p, $name, &$torn, &$seen, &$reads, &$examples) {
    $reads++;
    foreach (array_keys(rlock_status()['keys']) as $k) {
        $k = (string) $k;
        if ($k[0] === '#') {
            continue;   // a name being written: shown by its hash
        }
        $seen++;
        if (!preg_match('/^' . preg_quote($p, '/') . '(\d+)-(\d+):/', $k, $m) || $k !== $p . $name((int) $m[1], (int) $m[2])) {
            $torn++;
            $examples[] = $k;
        }
    }
};
for ($running = count($kids); $running > 0; ) {
    $look();
    while ($running > 0 && ($pid = pcntl_waitpid(-1, $status, WNOHANG)) > 0) {
        $running--;
        if (rlock_test_exit($status) !== 0) {
            echo "child: ", rlock_test_exit($status), "\n";
        }
    }
}
$look();
echo "names read: ", var_export($seen > 0, true), "\n";
echo "torn: $torn", $torn ? ' (e.g. ' . json_encode(array_slice($examples, 0, 3), JSON_INVALID_UTF8_SUBSTITUTE) . ')' : '', "\n";
$s = rlock_status();
echo "every process' acquires counted: ", $s['acquires'] === 10 * $rounds ? 'yes' : $s['acquires'], "\n";
?>
--EXPECT--
names read: true
torn: 0
every process' acquires counted: yes
