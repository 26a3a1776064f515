<?php
/* The torture run's witness: reads every process' log (nothing of rlock) and checks
 *   exclusion  per resource, among the GUARANTEED sections (below): one holder of a mutex
 *              (every mutex kind, a multi lock's keys each, the Symfony store's locks), one
 *              Redlock holder, one writer and no reader beside it, never more semaphore
 *              permits than the count;
 *   freed      a guaranteed section whose release returned false, where no fault that cuts
 *              connections (CLIENT KILL, a restart, the relay's cuts) came during the release:
 *              "hold freed under its owner";
 *   fencing    per resource, guaranteed fencing sections in the order they entered have
 *              strictly increasing tokens;
 *   rate       a limiter's admissions between any two of them fit GCRA's bound:
 *              admitted(i..j) <= burst + (tret_j - tcall_i) / emission interval + 1;
 *   and reports what the other processes found: faults.php's dead owners, the rogue caller
 *   getting in, a worker's fatal error.
 * A section is GUARANTEED when exit - tcall < ttl - margin (its lease cannot have run out by
 * itself: hrtime's clock counts a SIGSTOP too), or, with a watchdog, when its release
 * returned true and lost() was false. Others are counted as expired, not checked. A section
 * ends at its release's call (the worker's 'leave' line, as 'exit' stamps it): for a worker
 * killed in the release, not at the kill (Redis may have run the release, and others taken
 * the lock, while the reply had not come); a worker killed inside its work, at the kill.
 *
 *   php check.php DIR   (the run's directory: run.php keeps it when the run fails)
 * or require'd by run.php: torture_check(DIR, CONFIG). */

declare(strict_types=1);

require_once __DIR__ . '/common.php';

function torture_check(string $dir, array $cfg): array
{
    $margin = $cfg['margin'] * 1000000;
    $sections = [];   // parsed sections
    $open = [];       // pid.op => enter, not exited
    $left = [];       // pid.op => when its release was called (a 'leave' line)
    $lines = [];      // pid => [[t, line]] (the whole log of each pid, for the report)
    $admits = [];
    $c = ['sections' => 0, 'guaranteed' => 0, 'expired' => 0, 'misses' => 0, 'exceptions' => 0, 'admitted' => 0,
        'refused' => 0, 'faults' => 0, 'kills' => 0, 'stops' => 0, 'restarts' => 0, 'clientkills' => 0, 'scriptflushes' => 0,
        'busy' => 0, 'relay' => 0, 'rogue' => 0, 'deadchecks' => 0, 'onlost' => 0, 'kinds' => []];
    $violations = [];
    $exc = [];
    foreach (glob("$dir/worker-*.log") as $f) {
        foreach (file($f) as $line) {
            $e = torture_parse($line);
            if ($e === null) {
                continue;
            }
            $lines[$e['pid']][] = [$e['t'], rtrim($line)];
            $key = $e['pid'] . '.' . $e['op'];
            switch ($e['event']) {
                case 'enter':
                    $open[$key] = $e;
                    break;
                case 'leave':
                    $left[$key] = (int) $e['t'];
                    break;
                case 'exit':
                    $en = $open[$key] ?? null;
                    unset($open[$key], $left[$key]);
                    $sections[] = section_of($e, $en, (int) $e['t']);
                    break;
                case 'miss':
                    $c['misses']++;
                    break;
                case 'exc':
                    $c['exceptions']++;
                    $cls = $e['x']['class'] ?? '?';
                    $exc[$cls] = ($exc[$cls] ?? 0) + 1;
                    break;
                case 'onlost':
                    $c['onlost']++;
                    break;
                case 'admit':
                case 'refuse':
                    $c[$e['event'] === 'admit' ? 'admitted' : 'refused']++;
                    if ($e['event'] === 'admit') {
                        $admits[] = [(int) $e['x']['tcall'], (int) $e['x']['tret'], (int) $e['x']['n'], $e['pid']];
                    }
                    break;
                case 'fatal':
                    $violations[] = ['what' => 'worker error: ' . implode(' ', array_slice(explode(' ', rtrim($line)), 4)), 'pids' => [$e['pid']], 't' => $e['t']];
                    break;
            }
        }
    }
    // the faults: kill times, and when connections were cut
    $killedAt = [];
    $cuts = [];  // [from, to] ns
    foreach (['faults', 'relay'] as $who) {
        foreach (@file("$dir/$who.log") ?: [] as $line) {
            $e = torture_parse($line);
            if ($e === null) {
                continue;
            }
            $w = explode(' ', rtrim($line));
            $what = $w[4] ?? '';
            if ($e['event'] === 'violation') {
                $pid = preg_match('/ pid=(\d+)/', $line, $m) ? [(int) $m[1]] : [];
                $violations[] = ['what' => "$who: " . implode(' ', array_slice($w, 4)), 'pids' => $pid, 't' => $e['t']];
            } elseif ($e['event'] === 'deadcheck') {
                $c['deadchecks']++;
            } elseif ($e['event'] === 'relay') {
                $c['relay']++;
                $c['faults']++;
                if ($what === 'cut' || $what === 'drop') {
                    $cuts[] = [$e['t'], $e['t']];
                }
            } elseif ($e['event'] === 'fault') {
                $c['faults']++;
                switch ($what) {
                    case 'kill':
                        $c['kills']++;
                        preg_match('/pid=(\d+)/', $line, $m);
                        $killedAt[(int) $m[1]] = $e['t'];
                        break;
                    case 'stop': $c['stops']++; break;
                    case 'clientkill': $c['clientkills']++; $cuts[] = [$e['t'], $e['t']]; break;
                    case 'scriptflush': $c['scriptflushes']++; break;
                    case 'busy': $c['busy']++; break;
                    case 'restart':
                        $c['restarts']++;
                        preg_match('/up_ms=(\d+)/', $line, $m);
                        $cuts[] = [$e['t'], $e['t'] + (int) ($m[1] ?? 0) * 1000000];
                        break;
                }
            }
        }
    }
    foreach (@file("$dir/rogue.log") ?: [] as $line) {
        $e = torture_parse($line);
        if ($e === null) {
            continue;
        }
        $lines[$e['pid']][] = [$e['t'], rtrim($line)];
        if ($e['event'] === 'rogue') {
            $c['rogue']++;
        } elseif ($e['event'] === 'violation') {
            $violations[] = ['what' => implode(' ', array_slice(explode(' ', rtrim($line)), 4)), 'pids' => [$e['pid']], 't' => $e['t']];
        }
    }
    // a section a killed worker was inside ends at its kill; one of a process that ended
    // otherwise, at its last line; either, at its release's call when it was in the release
    // (Redis may have run it: the relay holds a reply back up to 300 ms, and the kill came
    // before the reply, as with seed 73102, whose others came in after the release)
    foreach ($open as $key => $en) {
        $pid = $en['pid'];
        $end = $left[$key] ?? $killedAt[$pid] ?? end($lines[$pid])[0];
        $sections[] = section_of(null, $en, $end);
    }
    foreach ($sections as &$s) {
        $c['sections']++;
        $c['kinds'][$s['kind']] = ($c['kinds'][$s['kind']] ?? 0) + 1;
        $s['g'] = ($s['texit'] - $s['tcall'] < $s['ttl'] * 1000000 - $margin)
            || (in_array($s['kind'], ['watchdog', 'onlost'], true) && $s['ret'] === '1' && $s['lost'] === '0');
        $c[$s['g'] ? 'guaranteed' : 'expired']++;
    }
    unset($s);

    $byRes = [];
    foreach ($sections as $i => $s) {
        if (!$s['g'] || $s['tenter'] === null) {
            continue;
        }
        foreach ($s['res'] as $r) {
            $byRes[$r][] = $i;
        }
        // freed under its owner: a guaranteed release that found the hold gone
        if ($s['ret'] === '0' && !in_array($s['kind'], ['watchdog', 'onlost'], true)) {
            $cut = false;
            foreach ($cuts as [$from, $to]) {
                $cut = $cut || ($from <= $s['tret'] + 50000000 && $to >= $s['texit'] - 50000000);
            }
            if (!$cut) {
                $violations[] = ['what' => "hold freed under its owner: {$s['kind']} " . implode('+', $s['res'])
                    . " op {$s['op']} of pid {$s['pid']} released false " . ms($s['texit'] - $s['tcall']) . " ms after its acquire call (ttl {$s['ttl']})",
                    'pids' => [$s['pid']], 't' => $s['texit'], 'until' => $s['tret']];
            }
        }
    }
    foreach ($byRes as $res => $idx) {
        usort($idx, fn ($a, $b) => $sections[$a]['tenter'] <=> $sections[$b]['tenter']);
        $family = substr($res, 0, strpos($res, ':'));
        $inside = [];  // index => section
        $lastFence = null;
        foreach ($idx as $i) {
            $s = $sections[$i];
            foreach ($inside as $j => $o) {
                if ($o['texit'] <= $s['tenter']) {
                    unset($inside[$j]);
                }
            }
            $clash = null;
            if ($family === 'm' || $family === 'rl') {
                $clash = $inside ? reset($inside) : null;
            } elseif ($family === 'rw') {
                foreach ($inside as $o) {
                    if ($o['kind'] === 'write' || $s['kind'] === 'write') {
                        $clash = $o;
                        break;
                    }
                }
            } elseif ($family === 'sem') {
                $sum = $s['permits'];
                foreach ($inside as $o) {
                    $sum += $o['permits'];
                }
                if ($sum > $cfg['permits']) {
                    $clash = reset($inside);
                }
            }
            if ($clash !== null) {
                $violations[] = ['what' => "exclusion on $res: {$s['kind']} op {$s['op']} of pid {$s['pid']} entered at "
                    . ms($s['tenter'] - $cfg['t0']) . " ms while {$clash['kind']} op {$clash['op']} of pid {$clash['pid']} was inside ("
                    . ms($clash['tenter'] - $cfg['t0']) . '..' . ms($clash['texit'] - $cfg['t0']) . ' ms; its release: ' . $clash['ret'] . ')',
                    'pids' => [$clash['pid'], $s['pid']], 't' => $s['tenter'], 'until' => max($clash['tret'], $s['tret'])];
            }
            $inside[$i] = $s;
            if ($s['kind'] === 'fencing') {
                if ($s['fence'] === null || $s['fence'] <= 0 || ($lastFence !== null && $s['fence'] <= $lastFence['fence'])) {
                    $violations[] = ['what' => "fencing on $res: op {$s['op']} of pid {$s['pid']} got token " . var_export($s['fence'], true)
                        . ($lastFence ? " after {$lastFence['fence']} of op {$lastFence['op']} of pid {$lastFence['pid']}" : ''),
                        'pids' => array_unique([$s['pid'], $lastFence['pid'] ?? $s['pid']]), 't' => $s['tenter']];
                }
                $lastFence = $s;
            }
        }
    }
    // the rate limiter: GCRA's bound between any two admissions (within 10 s of each other)
    usort($admits, fn ($a, $b) => $a[0] <=> $b[0]);
    $T = $cfg['rate_period'] / $cfg['rate_limit'] * 1000000;
    $reported = false;
    for ($i = 0; $i < count($admits) && !$reported; $i++) {
        $later = [];
        for ($k = $i; $k < count($admits) && $admits[$k][0] < $admits[$i][0] + 10000000000; $k++) {
            $later[] = $admits[$k];
        }
        usort($later, fn ($a, $b) => $a[1] <=> $b[1]);
        $sum = 0;
        foreach ($later as $j => $a) {
            $sum += $a[2];
            $bound = $cfg['rate_burst'] + ($a[1] - $admits[$i][0]) / $T + 1;
            if ($sum > $bound) {
                $violations[] = ['what' => "rate limiter rl0: $sum permits admitted within " . ms($a[1] - $admits[$i][0]) . ' ms from '
                    . ms($admits[$i][0] - $cfg['t0']) . ' ms (bound ' . floor($bound) . ')', 'pids' => [$admits[$i][3], $a[3]], 't' => $a[1]];
                $reported = true;
                break;
            }
        }
    }
    $c['exception_classes'] = $exc;
    return [$c, $violations, $lines];
}

function section_of(?array $exit, ?array $enter, int $texit): array
{
    $e = $exit ?? $enter;
    $x = $exit['x'] ?? [];
    $ex = $enter['x'] ?? [];
    return ['pid' => $e['pid'], 'op' => $e['op'], 'kind' => $e['kind'], 'res' => explode('+', $e['res']),
        'tcall' => (int) ($x['tcall'] ?? $ex['tcall']), 'tenter' => isset($x['tenter']) ? (int) $x['tenter'] : ($enter ? $enter['t'] : null),
        'texit' => $texit, 'tret' => (int) ($x['tret'] ?? $texit), 'ttl' => (int) ($x['ttl'] ?? $ex['ttl']),
        'ret' => $exit ? ($x['ret'] ?? '?') : 'killed', 'lost' => $x['lost'] ?? '?',
        'fence' => isset($ex['fence']) && $ex['fence'] !== '' ? (int) $ex['fence'] : null,
        'permits' => (int) ($ex['permits'] ?? 1)];
}

function ms(int|float $ns): string
{
    return (string) round($ns / 1000000, 1);
}

/* The report of a violation: what, and the last lines of each process involved up to it. */
function torture_report(array $v, array $lines, int $seed): string
{
    // (a what of several lines, as a process' stderr: its first line, then the rest indented)
    [$what, $more] = explode("\n", $v['what'], 2) + [1 => null];
    $out = "torture: VIOLATION $what seed=$seed\n" . ($more === null ? '' : preg_replace('/^/m', '  ', $more) . "\n");
    foreach (array_unique($v['pids']) as $pid) {
        // up to the violation (both sections' releases), and a few lines after it
        $until = ($v['until'] ?? $v['t']) + 1000000;
        $mine = array_values(array_filter($lines[$pid] ?? [], fn ($l) => $l[0] <= $until));
        $out .= "  last lines of pid $pid:\n";
        foreach (array_slice($mine, -20) as [, $l]) {
            $out .= "    $l\n";
        }
    }
    return $out;
}

/* The reports of the violations: the witness' own first (exclusion, fencing, a hold freed,
 * the rate limit, a dead owner), then the rest, at most 3 of each sort, and how many more. */
function torture_reports(array $violations, array $lines, int $seed): string
{
    $rank = fn ($v) => match (true) {
        str_starts_with($v['what'], 'exclusion') => 0,
        str_starts_with($v['what'], 'fencing') => 1,
        str_starts_with($v['what'], 'hold freed') => 2,
        str_starts_with($v['what'], 'rate') => 3,
        str_contains($v['what'], 'deadowner') => 4,
        str_starts_with($v['what'], 'rogue') => 5,
        default => 6,
    };
    usort($violations, fn ($a, $b) => [$rank($a), $a['t']] <=> [$rank($b), $b['t']]);
    $out = '';
    $shown = [];
    foreach ($violations as $v) {
        $r = $rank($v);
        $shown[$r] = ($shown[$r] ?? 0) + 1;
        if ($shown[$r] <= 3) {
            $out .= torture_report($v, $lines, $seed);
        }
    }
    $more = count($violations) - array_sum(array_map(fn ($n) => min(3, $n), $shown));
    return $out . ($more > 0 ? "torture: $more more violations of these sorts\n" : '');
}

if (realpath($_SERVER['SCRIPT_FILENAME'] ?? '') === __FILE__) {
    $dir = $argv[1] ?? '.';
    $cfg = torture_config("$dir/config.json");
    [$c, $violations, $lines] = torture_check($dir, $cfg);
    echo torture_reports($violations, $lines, $cfg['seed']);
    echo json_encode($c), "\n", 'violations=', count($violations), "\n";
    exit($violations ? 1 : 0);
}
