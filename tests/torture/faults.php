<?php
/* The torture run's faults: a seeded draw every 0.2-1.2 s until the deadline, each logged
 * (faults.log) with the time it happened:
 *   kill        SIGKILL of a worker (run.php starts it again, a new incarnation); when its log
 *               shows it inside a section, a check after its lease: no server holds its token
 *   stop        SIGSTOP of a worker, SIGCONT well within the lease
 *   clientkill  CLIENT KILL TYPE normal on the main server (or a Redlock master)
 *   scriptflush SCRIPT FLUSH on every server
 *   restart     SHUTDOWN SAVE of the main server and a start on the same port and data: the
 *               holds survive it (their expiry is absolute in the rdb file)
 *   busy        a Lua script that runs 150 ms (busy-reply-threshold 50, set again after a
 *               restart): others get BUSY
 * (the relay, relay.php, misbehaves on its own draws: its log). A violation it sees is a line
 * "violation deadowner ..." of its log, which check.php reports.
 *
 *   php faults.php CONFIG */

declare(strict_types=1);

require __DIR__ . '/common.php';

$cfg = torture_config($argv[1]);
mt_srand($cfg['seed'] ^ 0xfa17);
$log = new TortureLog("{$cfg['dir']}/faults.log", 'faults');
torture_go($cfg);
$main = new TortureResp($cfg['port']);
$servers = [$cfg['port'] => $main];
foreach ($cfg['masters'] as $p) {
    $servers[$p] = new TortureResp($p);
}
$checks = [];  // [due ns, worker, pid, token, resource, kill ns]
$lastRestart = $cfg['t0'];
$weights = $cfg['fault_weights'];

function pids(array $cfg): array
{
    $p = json_decode((string) @file_get_contents("{$cfg['dir']}/pids.json"), true);
    return is_array($p) ? $p : [];
}

/* the sections a worker's log shows it inside: op => parsed enter line */
function open_sections(string $file): array
{
    $open = [];
    $fh = @fopen($file, 'r');
    if (!$fh) {
        return [];
    }
    // the tail is enough: a section is seconds long at most
    fseek($fh, max(0, filesize($file) - 262144));
    while (($line = fgets($fh)) !== false) {
        $e = torture_parse($line);
        if ($e === null) {
            continue;
        }
        // (lines of every incarnation: the caller keeps those of the pid it killed)
        if ($e['event'] === 'enter') {
            $open[$e['pid'] . '.' . $e['op']] = $e;
        } elseif ($e['event'] === 'exit') {
            unset($open[$e['pid'] . '.' . $e['op']]);
        }
    }
    fclose($fh);
    return $open;
}

function pick(array $weights): string
{
    $r = mt_rand(1, max(1, array_sum($weights)));
    foreach ($weights as $k => $w) {
        if (($r -= $w) <= 0) {
            return $k;
        }
    }
    return array_key_first($weights);
}

function redis_up(int $port, float $seconds): bool
{
    $r = new TortureResp($port, 0.5);
    $until = hrtime(true) + (int) ($seconds * 1e9);
    do {
        if ($r->cmd('PING') === 'PONG') {
            $r->close();
            return true;
        }
        usleep(20000);
    } while (hrtime(true) < $until);
    return false;
}

$n = 0;
while (hrtime(true) < $cfg['deadline'] - 1000000000 && !file_exists("{$cfg['dir']}/stop")) {
    usleep(mt_rand(200, 1200) * 1000);
    // the dead owners' checks that are due
    $now = hrtime(true);
    foreach ($checks as $i => [$due, $w, $pid, $token, $res, $killed]) {
        if ($due > $now) {
            continue;
        }
        unset($checks[$i]);
        foreach ($servers as $port => $r) {
            $dump = $r->dump();
            if ($dump === null) {
                $log->line('-', 'deadcheck', "skipped port=$port (no reply)");
                continue;
            }
            $key = torture_token_held($dump, $token);
            if ($key !== null) {
                $log->line('-', 'violation', "deadowner worker=$w pid=$pid res=$res token=$token key=$key port=$port killed=$killed ms_after_kill=" . intdiv($now - $killed, 1000000));
            }
        }
        $log->line('-', 'deadcheck', "worker=$w pid=$pid res=$res token=$token");
    }
    $kind = pick($weights);
    $pids = pids($cfg);
    $n++;
    switch ($kind) {
        case 'kill':
        case 'stop':
            if (!$pids) {
                break;
            }
            $w = (int) array_keys($pids)[mt_rand(0, count($pids) - 1)];
            $pid = (int) $pids[$w];
            if ($kind === 'stop') {
                $ms = mt_rand(50, $cfg['stop_max_ms']);
                $t = hrtime(true);
                if (posix_kill($pid, SIGSTOP)) {
                    usleep($ms * 1000);
                    posix_kill($pid, SIGCONT);
                    $log->line('-', 'fault', "stop worker=$w pid=$pid ms=$ms", $t);
                }
                break;
            }
            $t = hrtime(true);
            // run.php reads this file to know a worker's SIGKILL was ours: written before the
            // kill, as run.php may reap the worker between the kill and any line after it (a
            // run beside CI's lanes saw "worker 2 ended by signal 9" so, seed 452); a pid
            // written for a kill that then fails is one that had ended already
            file_put_contents("{$cfg['dir']}/killed", "$pid\n", FILE_APPEND | LOCK_EX);
            if (!posix_kill($pid, SIGKILL)) {
                break;
            }
            $log->line('-', 'fault', "kill worker=$w pid=$pid", $t);
            usleep(20000);
            foreach (open_sections("{$cfg['dir']}/worker-$w.log") as $e) {
                if ((int) $e['pid'] !== $pid || !isset($e['x']['token']) || $e['x']['token'] === '-') {
                    continue;
                }
                $ttl = (int) $e['x']['ttl'];
                $checks[] = [$t + ($ttl + $cfg['margin'] + $cfg['handover_ms']) * 1000000, $w, $pid, $e['x']['token'], $e['res'], $t];
                $log->line('-', 'inside', "worker=$w pid=$pid op={$e['op']} kind={$e['kind']} res={$e['res']} token={$e['x']['token']}");
            }
            break;
        case 'clientkill':
            $port = mt_rand(1, 4) === 1 && $cfg['masters'] ? $cfg['masters'][mt_rand(0, count($cfg['masters']) - 1)] : $cfg['port'];
            $t = hrtime(true);
            $r = $servers[$port]->cmd('CLIENT', 'KILL', 'TYPE', 'normal');
            $servers[$port]->close();
            $log->line('-', 'fault', "clientkill port=$port killed=" . json_encode($r), $t);
            break;
        case 'scriptflush':
            $t = hrtime(true);
            foreach ($servers as $port => $r) {
                $r->cmd('SCRIPT', 'FLUSH');
            }
            $log->line('-', 'fault', 'scriptflush', $t);
            break;
        case 'restart':
            if (hrtime(true) - $lastRestart < 8 * 1000000000) {
                break;  // a restart at most every 8 s: the run is not all outage
            }
            $t = hrtime(true);
            $main->cmd('SHUTDOWN', 'SAVE');
            $main->close();
            // the old server's end: its port free again
            for ($i = 0; $i < 200 && @fsockopen('127.0.0.1', $cfg['port'], $en, $es, 0.1); $i++) {
                usleep(20000);
            }
            $down = hrtime(true);
            exec($cfg['redis_cmd'][$cfg['port']] . ' 2>&1', $out, $rc);
            $ok = redis_up($cfg['port'], 10);
            if ($ok && !is_string($main->cmd('CONFIG', 'SET', 'busy-reply-threshold', '50'))) {
                $main->cmd('CONFIG', 'SET', 'lua-time-limit', '50');  // (before Redis 7)
            }
            $lastRestart = $cfg['t0'];
            $log->line('-', 'fault', "restart down_ms=" . intdiv($down - $t, 1000000) . ' up_ms=' . intdiv($lastRestart - $t, 1000000) . ' ok=' . ($ok ? 1 : 0), $t);
            if (!$ok) {
                $log->line('-', 'violation', 'restart: the main server did not come back (harness)');
            }
            break;
        case 'busy':
            $t = hrtime(true);
            $busy = new TortureResp($cfg['port'], 3);
            $r = $busy->cmd('EVAL', "local t = redis.call('TIME') local s = t[1] * 1000000 + t[2] "
                . "while true do t = redis.call('TIME') if t[1] * 1000000 + t[2] - s > 150000 then break end end return 1", '0');
            $busy->close();
            $log->line('-', 'fault', 'busy ms=150 r=' . json_encode($r), $t);
            break;
    }
}
$log->line('-', 'end', "draws=$n pending_checks=" . count($checks));
// the checks still pending: wait for them (bounded by the lease), so none is lost
foreach ($checks as [$due, $w, $pid, $token, $res, $killed]) {
    while (hrtime(true) < $due) {
        usleep(50000);
    }
    foreach ($servers as $port => $r) {
        $dump = $r->dump();
        if ($dump !== null && ($key = torture_token_held($dump, $token)) !== null) {
            $log->line('-', 'violation', "deadowner worker=$w pid=$pid res=$res token=$token key=$key port=$port killed=$killed");
        }
    }
    $log->line('-', 'deadcheck', "worker=$w pid=$pid res=$res token=$token");
}
