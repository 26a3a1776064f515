--TEST--
Torture witness: a worker killed during its release (the reply held back by the relay) left its section at the release's call, not at the kill
--FILE--
<?php
/* tests/torture/check.php on a run's logs written here, as seed 73102's run in the Swoole
 * lane had them: pid 100 entered m:r2 and called its release, Redis ran it, the relay held
 * the reply back 232 ms and the fault process killed pid 100 before it came; pid 200
 * entered m:r2 meanwhile. A worker killed inside its work is still the witness' to report. */
require __DIR__ . '/check.php';

function witness(bool $released): int
{
    $dir = sys_get_temp_dir() . '/rlock-witness-' . getmypid() . ($released ? 'r' : 'w');
    @mkdir($dir);
    $t0 = 1000000000;
    $ms = fn (int $ms) => $t0 + $ms * 1000000;
    $w0 = [
        $ms(10) . ' 100 3.c69.297 call plain m:r2',
        $ms(25) . ' 100 3.c69.297 enter plain m:r2 tcall=' . $ms(10) . ' ttl=3000 token=b3ad7940af366875cbac40d24b17ff5e',
    ];
    if ($released) {
        $w0[] = $ms(29) . ' 100 3.c69.297 leave plain m:r2';
    }
    $w1 = [
        $ms(60) . ' 200 1.c81.342 call destructor m:r2',
        $ms(61) . ' 200 1.c81.342 enter destructor m:r2 tcall=' . $ms(60) . ' ttl=3000 token=b09f3452d371991b5943f7c42cf71ed4',
        $ms(66) . ' 200 1.c81.342 leave destructor m:r2',
        $ms(66) . ' 200 1.c81.342 exit destructor m:r2 tcall=' . $ms(60) . ' tenter=' . $ms(61) . ' ttl=3000 ret=d lost=0 tret=' . $ms(67),
    ];
    file_put_contents("$dir/worker-0.log", implode("\n", $w0) . "\n");
    file_put_contents("$dir/worker-1.log", implode("\n", $w1) . "\n");
    file_put_contents("$dir/relay.log", $ms(29) . " 300 - relay delay ms=232\n");
    file_put_contents("$dir/faults.log", $ms(160) . " 400 - fault kill worker=0 pid=100\n");
    $cfg = ['seed' => 73102, 't0' => $t0, 'margin' => 500, 'permits' => 3, 'rate_limit' => 20, 'rate_burst' => 5,
        'rate_period' => 1000, 'dir' => $dir];
    [$c, $violations] = torture_check($dir, $cfg);
    foreach ($violations as $v) {
        echo $v['what'], "\n";
    }
    array_map('unlink', glob("$dir/*"));
    rmdir($dir);
    return count($violations);
}

$n = witness(true);
echo "killed in its release: $n violations\n";
$n = witness(false);
echo "killed in its work: $n violations\n";
?>
--EXPECT--
killed in its release: 0 violations
exclusion on m:r2: destructor op 1.c81.342 of pid 200 entered at 61 ms while plain op 3.c69.297 of pid 100 was inside (25..160 ms; its release: killed)
killed in its work: 1 violations
