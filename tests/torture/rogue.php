<?php
/* The torture run's rogue caller: every public method that releases, restores or asks about
 * a hold, called with what it was never given: junk, empty and null tokens (null under
 * coercive typing: this file has no strict_types), tokens the workers hold on other keys
 * (read from their logs), a read-write lock's token on its other side, keys spelled as key()
 * returns them and in other ways (without the prefix, the multi key form, an internal key).
 * It must never get in: a release, restore, unlock or extend that returns true, or an
 * isAcquired() that says yes, is a violation (a line "violation rogue ..." of rogue.log).
 * forceUnlock() is the one deliberate exception, never called. Every call is a line of its
 * log; TypeError, ValueError and RLock exceptions are counted.
 *
 *   php -d extension=rlock.so rogue.php CONFIG */

require __DIR__ . '/common.php';

$cfg = torture_config($argv[1]);
mt_srand($cfg['seed'] ^ 0x70c0e);
$log = new TortureLog("{$cfg['dir']}/rogue.log", 'rogue');
$prefix = $cfg['prefix'];
$base = ['server' => "redis://127.0.0.1:{$cfg['port']}", 'prefix' => $prefix, 'ttl' => $cfg['ttl'],
    'connect_timeout' => 1000, 'read_timeout' => 1000];
$masters = array_map(fn ($p) => "redis://127.0.0.1:$p", $cfg['masters']);
$names = [];
for ($i = 0; $i < $cfg['resources']; $i++) {
    array_push($names, "r$i", "w$i", "s$i");
}
$names[] = 'rl0';

/* tokens the workers held lately: token => [resource names it holds, kind] */
$tokens = [];
$offsets = [];
function harvest(): void
{
    global $cfg, $tokens, $offsets;
    foreach (glob("{$cfg['dir']}/worker-*.log") as $f) {
        $fh = @fopen($f, 'r');
        if (!$fh) {
            continue;
        }
        fseek($fh, max($offsets[$f] ?? 0, filesize($f) - 65536));
        while (($line = fgets($fh)) !== false) {
            $e = torture_parse($line);
            if ($e && $e['event'] === 'enter' && isset($e['x']['token']) && $e['x']['token'] !== '-') {
                $res = array_map(fn ($r) => substr($r, strpos($r, ':') + 1), explode('+', $e['res']));
                $tokens[$e['x']['token']] = [$res, $e['kind']];
            }
        }
        $offsets[$f] = ftell($fh);
        fclose($fh);
    }
    if (count($tokens) > 200) {
        $tokens = array_slice($tokens, -100, null, true);
    }
}

/* a spelling of $name's key: as written, as key() returns it, the multi form, without the
 * prefix while the options have one, an internal key */
function spell(string $name): array
{
    global $prefix, $base;
    $full = $prefix . $name;
    return match (mt_rand(1, 7)) {
        1 => [$name, $base],
        2 => [$full, $base],                                   // key() with its prefix
        3 => [$full, ['prefix' => ''] + $base],
        4 => [strlen($full) . ':' . $full . ',', $base],        // the multi key form
        5 => [strlen($full) . ':' . $full . ',', ['prefix' => ''] + $base],
        6 => ['}{' . $full . '}:' . ['semaphore', 'read', 'rate', 'fence'][mt_rand(0, 3)], ['prefix' => ''] + $base],
        7 => [$name . "\0", $base],
    };
}

/* 32 hex digits, a well-formed token no hold was given (from the seed's draws) */
function junk_token(): string
{
    $t = '';
    for ($i = 0; $i < 4; $i++) {
        $t .= sprintf('%08x', mt_rand(0, 0x7fffffff) ^ (mt_rand(0, 1) << 31));
    }
    return $t;
}

/* a token this call must not get in with, for a key of $name: junk, '', null, or a worker's
 * token of another resource */
function bad_token(string $name): array
{
    global $tokens;
    switch (mt_rand(1, 8)) {
        case 1: return ['', 'empty'];
        case 2: return [null, 'null'];
        case 3: return [junk_token(), 'junk'];
        case 4: return [str_repeat("\0", mt_rand(1, 40)), 'nul'];
        case 5: return [mt_rand(0, 1) ? '*' : '%', 'glob'];
    }
    $others = array_filter($tokens, fn ($t) => !in_array($name, $t[0], true));
    if (!$others) {
        return ['', 'empty'];
    }
    $k = array_keys($others)[mt_rand(0, count($others) - 1)];
    return [(string) $k, 'other:' . implode('+', $others[$k][0])];
}

$calls = $errors = $n = 0;
function got_in(string $what): void
{
    global $log;
    $log->line('-', 'violation', "rogue got in: $what");
}

function attempt(string $what, callable $fn): void
{
    global $log, $calls, $errors, $n;
    $calls++;
    $op = (string) ++$n;
    $t = hrtime(true);
    try {
        $r = $fn();
        $log->line($op, 'rogue', "$what r=" . var_export($r, true), $t);
        if ($r === true) {
            got_in($what);
        }
    } catch (TypeError|ValueError|RLockException $e) {
        $errors++;
        $log->line($op, 'rogue', "$what e=" . get_class($e), $t);
    }
}

torture_go($cfg);
$deadline = $cfg['deadline'];
for ($i = 0; $i < 1000000 && hrtime(true) < $deadline && !file_exists("{$cfg['dir']}/stop"); $i++) {
    if ($i % 20 === 0) {
        harvest();
    }
    $name = $names[mt_rand(0, count($names) - 1)];
    [$key, $opts] = spell($name);
    [$tok, $tk] = bad_token($name);
    $label = json_encode($key) . " tok=$tk";
    switch (mt_rand(1, 10)) {
        case 1: case 2: case 3:
            attempt("release $label", fn () => @RLock::release($key, $tok, $opts));
            break;
        case 4:
            attempt("release(servers) $label", fn () => @RLock::release($key, $tok, ['servers' => $masters] + array_diff_key($opts, ['server' => 1])));
            break;
        case 5:
            attempt("restore $label", function () use ($key, $tok, $opts) {
                $l = new RLock($key, $opts);
                return @$l->restore($tok) ?: $l->isAcquired();
            });
            break;
        case 6:
            // a read-write lock's token on its other side
            $rws = array_filter($tokens, fn ($t) => $t[1] === 'read' || $t[1] === 'write');
            if (!$rws) {
                break;
            }
            $t = array_keys($rws)[mt_rand(0, count($rws) - 1)];
            [$res, $kind] = $rws[$t];
            attempt("restore other side of $kind {$res[0]}", function () use ($res, $kind, $t, $base) {
                $rw = new RReadWriteLock($res[0], $base);
                $l = $kind === 'read' ? $rw->writeLock() : $rw->readLock();
                return $l->restore((string) $t) ?: $l->isAcquired();
            });
            break;
        case 7:
            attempt("unlock/extend unheld $label", function () use ($key, $opts) {
                $l = new RLock($key, $opts);
                return $l->unlock() || $l->extend() || $l->isAcquired();
            });
            break;
        case 8:
            attempt("semaphore release unheld $name", function () use ($name, $base) {
                $s = new RSemaphore($name, mt_rand(1, 5), $base);
                return $s->release() || $s->extend() || $s->isAcquired();
            });
            break;
        case 9:
            attempt("multi unlock unheld $name", function () use ($base) {
                $l = RLock::multi(['r' . mt_rand(0, 1), 'r' . mt_rand(2, 3)], $base);
                return $l->unlock() || $l->isAcquired() || @$l->restore(junk_token());
            });
            break;
        case 10:
            attempt("rw unlock unheld $name", function () use ($name, $base, $tok) {
                $rw = new RReadWriteLock($name, $base);
                return $rw->readLock()->unlock() || $rw->writeLock()->unlock() || @$rw->writeLock()->restore($tok)
                    || @$rw->readLock()->restore($tok);
            });
            break;
    }
    usleep(mt_rand(2000, 15000));
}
$log->line('-', 'end', "calls=$calls errors=$errors");
