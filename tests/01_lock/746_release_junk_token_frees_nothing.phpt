--TEST--
RLock::release() and restore() with a token no hold was given ('', null, '*', malformed, another key's, the other side's) free and take over nothing: a write side, a read side, a multi lock, and a plain lock whose key is spelled as a multi key's stay with their holder, who can still release them
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
// null reaches a string parameter as '' in coercive mode (with PHP's deprecation)
error_reporting(E_ALL & ~E_DEPRECATED);
$o = rlock_test_options();
$junk = ['' => '', 'null' => null, '*' => '*', 'short' => str_repeat('a', 31), 'upper' => str_repeat('A', 32),
    'NULs' => str_repeat("\0", 32), 'hex+1' => str_repeat('a', 33), 'not hex' => str_repeat('g', 32)];
// another holder (reentrant off: not this context's hold)
$other = ['reentrant' => false] + $o;

// whether $try() gets in from another process
function elsewhere(callable $try): bool
{
    $pid = pcntl_fork();
    if ($pid === 0) {
        exit($try() ? 0 : 1);
    }
    pcntl_waitpid($pid, $status);
    return pcntl_wexitstatus($status) === 0;
}

function tries(string $what, RLock $held, array $keys, array $tokens, array $o, callable $inside): void
{
    $freed = [];
    foreach ($keys as $key) {
        foreach ($tokens as $name => $t) {
            if (RLock::release($key, $t, $o)) {
                $freed[] = "$name on $key";
            }
        }
    }
    $restored = [];
    foreach ($tokens as $name => $t) {
        if ((string) $t === '') {
            continue;  // restore('') is a ValueError (phpt 544)
        }
        $r = new RLock($held->key(), ['prefix' => ''] + $o);
        if ($r->restore($t)) {
            $restored[] = $name;
        }
    }
    printf("%s: freed %s, restored %s, holder holds %s, another gets in %s, holder releases %s\n", $what,
        $freed ? implode(', ', $freed) : 'nothing', $restored ? implode(', ', $restored) : 'nothing',
        var_export($held->isAcquired(), true), var_export(elsewhere($inside), true), var_export($held->unlock(), true));
}

$rw = new RReadWriteLock('report', $o);
$w = $rw->writeLock();
$w->tryLock();
$mine = (new RReadWriteLock('report', $other))->writeLock();
var_dump($mine->tryLock(), $mine->token());
tries('write side', $w, ['report', $w->key()], $junk + ['mine' => $mine->token()], $o,
    fn () => (new RReadWriteLock('report', $other))->writeLock()->tryLock());

$r = $rw->readLock();
$r->tryLock();
$reader2 = (new RReadWriteLock('report', $other))->readLock();
$reader2->tryLock();
tries('read side', $r, ['report', $r->key()], $junk, $o,
    fn () => (new RReadWriteLock('report', $other))->writeLock()->tryLock());
var_dump($reader2->unlock());

$w->tryLock();
tries('write side, a reader\'s token', $w, ['report'], ['read' => $reader2->token() ?? $r->token() ?? str_repeat('b', 32)], $o,
    fn () => (new RReadWriteLock('report', $other))->readLock()->tryLock());

$m = RLock::multi(['a', 'b'], $o);
$m->tryLock();
tries('multi', $m, [$m->key()], $junk, $o, fn () => RLock::multi(['b', 'c'], $other)->tryLock());

$m2 = RLock::multi(['a', 'b'], $o);
$plain = new RLock($m2->key(), ['prefix' => ''] + $o);
$plain->tryLock();
tries('plain, spelled as a multi key', $plain, [$plain->key()], $junk, $o,
    fn () => (new RLock($m2->key(), ['prefix' => ''] + $other))->tryLock());

$l = new RLock('plain', $o);
$l->tryLock();
$k = new RLock('plain2', $o);
$k->tryLock();
tries('plain', $l, ['plain', $l->key()], $junk + ['another key\'s' => $k->token()], $o,
    fn () => (new RLock('plain', $other))->tryLock());
var_dump($k->unlock());
?>
--EXPECT--
bool(false)
NULL
write side: freed nothing, restored nothing, holder holds true, another gets in false, holder releases true
read side: freed nothing, restored nothing, holder holds true, another gets in false, holder releases true
bool(true)
write side, a reader's token: freed nothing, restored nothing, holder holds true, another gets in false, holder releases true
multi: freed nothing, restored nothing, holder holds true, another gets in false, holder releases true
plain, spelled as a multi key: freed nothing, restored nothing, holder holds true, another gets in false, holder releases true
plain: freed nothing, restored nothing, holder holds true, another gets in false, holder releases true
bool(true)
