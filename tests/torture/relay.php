<?php
/* The torture run's relay: some workers reach the main redis-server through it. It relays
 * every connection, parsing the RESP commands the client sends and the replies the server
 * sends (how many replies a connection still waits for), and now and then, by its seeded
 * draws, it misbehaves as a network or a server does:
 *   delay    holds a reply back 20-300 ms (later replies queue behind it)
 *   cut      relays a part of a reply, then closes the connection
 *   drop     closes the connection instead of relaying a reply
 *   loading  answers every command of a write with -LOADING itself (the server never sees
 *            them), when the connection waits for no reply: what a restarting server says
 *   busy     the same with -BUSY: what a server running a long script says
 * Each misbehaviour is a line of its log (relay.log).
 *
 *   php relay.php CONFIG */

declare(strict_types=1);

require __DIR__ . '/common.php';

$cfg = torture_config($argv[1]);
mt_srand($cfg['seed'] ^ 0x7e1a7);
$log = new TortureLog("{$cfg['dir']}/relay.log", 'relay');
$server = stream_socket_server("tcp://127.0.0.1:{$cfg['relay_port']}", $errno, $errstr);
if (!$server) {
    fwrite(STDERR, "relay: cannot listen on {$cfg['relay_port']}: $errstr\n");
    exit(2);
}
$p = $cfg['relay_faults'];  // per mille of each event: delay, cut, drop, loading, busy
file_put_contents("{$cfg['dir']}/relay.ready", '1');

/* the end of the RESP value that starts at $pos in $buf, or null while incomplete */
function resp_end(string $buf, int $pos): ?int
{
    $eol = strpos($buf, "\r\n", $pos);
    if ($eol === false) {
        return null;
    }
    $type = $buf[$pos];
    $n = (int) substr($buf, $pos + 1, $eol - $pos - 1);
    $pos = $eol + 2;
    switch ($type) {
        case '$':
            if ($n < 0) {
                return $pos;
            }
            return strlen($buf) >= $pos + $n + 2 ? $pos + $n + 2 : null;
        case '*':
            for ($i = 0; $i < $n; $i++) {
                if ($pos >= strlen($buf) || ($pos = resp_end($buf, $pos)) === null) {
                    return null;
                }
            }
            return $pos;
        default:  // + - : and inline
            return $pos;
    }
}

/* How many whole values $buf starts with, and the rest. */
function resp_split(string $buf): array
{
    $n = 0;
    $pos = 0;
    while ($pos < strlen($buf) && ($end = resp_end($buf, $pos)) !== null) {
        $pos = $end;
        $n++;
    }
    return [$n, substr($buf, $pos)];
}

$pairs = [];  // id => ['c', 'u', 'cin' (partial command), 'uin' (partial reply), 'pending', 'out' => [[due ns, data]]]
// (bounded: run.php stops it; its start signal may come up to 5 minutes late)
$deadline = hrtime(true) + ($cfg['seconds'] + 600) * 1000000000;
$close = function (int $id, string $why) use (&$pairs, $log) {
    @fclose($pairs[$id]['c']);
    @fclose($pairs[$id]['u']);
    unset($pairs[$id]);
    $log->line('-', 'relay', $why);
};
while (hrtime(true) < $deadline && !file_exists("{$cfg['dir']}/relay.stop")) {
    $read = [$server];
    $wait = 0.2;
    $now = hrtime(true);
    foreach ($pairs as $pair) {
        $read[] = $pair['c'];
        $read[] = $pair['u'];
        if ($pair['out']) {
            $wait = min($wait, max(0, ($pair['out'][0][0] - $now) / 1e9));
        }
    }
    $write = $except = null;
    $n = @stream_select($read, $write, $except, 0, (int) ($wait * 1e6));
    foreach ($n ? $read : [] as $s) {
        if ($s === $server) {
            if ($c = @stream_socket_accept($server, 0)) {
                $u = @stream_socket_client("tcp://127.0.0.1:{$cfg['port']}", $errno, $errstr, 1);
                if (!$u) {
                    fclose($c);  // the server restarts: the client sees a closed connection
                    continue;
                }
                $pairs[(int) $c] = ['c' => $c, 'u' => $u, 'cin' => '', 'uin' => '', 'pending' => 0, 'out' => []];
            }
            continue;
        }
        foreach ($pairs as $id => $pair) {
            if ($s !== $pair['c'] && $s !== $pair['u']) {
                continue;
            }
            $data = @fread($s, 65536);
            if ($data === false || $data === '') {
                // one side closed: close the other (its queued replies go first)
                foreach ($pair['out'] as [, $d]) {
                    @fwrite($pair['c'], $d);
                }
                @fclose($pair['c']);
                @fclose($pair['u']);
                unset($pairs[$id]);
                break;
            }
            if ($s === $pair['c']) {
                [$cmds, $rest] = resp_split($pair['cin'] . $data);
                $r = mt_rand(1, 1000);
                if ($cmds > 0 && $rest === '' && $pair['pending'] === 0 && !$pair['out'] && $r <= $p['loading'] + $p['busy']) {
                    $err = $r <= $p['loading'] ? "-LOADING Redis is loading the dataset in memory\r\n"
                        : "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n";
                    @fwrite($pair['c'], str_repeat($err, $cmds));
                    $log->line('-', 'relay', ($r <= $p['loading'] ? 'loading' : 'busy') . " cmds=$cmds");
                    $pairs[$id]['cin'] = '';
                    break;
                }
                $pairs[$id]['cin'] = $rest;
                $pairs[$id]['pending'] += $cmds;
                @fwrite($pair['u'], $data);
                break;
            }
            [$replies, $rest] = resp_split($pair['uin'] . $data);
            $pairs[$id]['uin'] = $rest;
            $pairs[$id]['pending'] = max(0, $pair['pending'] - $replies);
            $r = mt_rand(1, 1000);
            if ($r <= $p['cut']) {
                foreach ($pair['out'] as [, $d]) {
                    @fwrite($pair['c'], $d);
                }
                $keep = mt_rand(0, max(0, strlen($data) - 1));
                @fwrite($pair['c'], substr($data, 0, $keep));
                $close($id, "cut at=$keep of=" . strlen($data));
            } elseif ($r <= $p['cut'] + $p['drop']) {
                $close($id, 'drop of=' . strlen($data));
            } elseif ($r <= $p['cut'] + $p['drop'] + $p['delay']) {
                $ms = mt_rand(20, 300);
                $pairs[$id]['out'][] = [hrtime(true) + $ms * 1000000, $data];
                $log->line('-', 'relay', "delay ms=$ms");
            } elseif ($pair['out']) {
                $pairs[$id]['out'][] = [0, $data];  // behind a delayed one
            } else {
                @fwrite($pair['c'], $data);
            }
            break;
        }
    }
    // the delayed replies that are due, in order
    $now = hrtime(true);
    foreach ($pairs as $id => $pair) {
        while ($pair['out'] && $pair['out'][0][0] <= $now) {
            @fwrite($pair['c'], array_shift($pair['out'])[1]);
        }
        $pairs[$id]['out'] = $pair['out'];
    }
}
