<?php
/* What the torture test's processes share (scripts/torture.sh runs tests/torture/run.php,
 * which starts the others): the run's configuration, the witness' log lines and a raw RESP
 * client. Nothing here uses rlock: the witness and the checks see Redis and the clock
 * (hrtime, CLOCK_MONOTONIC, one clock for every process of the machine) on their own. */

declare(strict_types=1);

/* The run's configuration, a JSON file run.php writes: ports, leases, deadline... */
function torture_config(string $file): array
{
    $cfg = json_decode((string) file_get_contents($file), true);
    if (!is_array($cfg)) {
        fwrite(STDERR, "torture: no configuration in $file\n");
        exit(2);
    }
    return $cfg;
}

/* The start signal: run.php writes "t0 deadline" (hrtime ns) to DIR/go once every worker is
 * up (a worker under valgrind takes seconds to start); every process waits for it (5
 * minutes at most) and runs until the deadline. */
function torture_go(array &$cfg): void
{
    for ($i = 0; $i < 15000; $i++) {
        $go = @file_get_contents("{$cfg['dir']}/go");
        if ($go !== false && preg_match('/^(\d+) (\d+)$/', $go, $m)) {
            [$cfg['t0'], $cfg['deadline']] = [(int) $m[1], (int) $m[2]];
            return;
        }
        usleep(20000);
    }
    fwrite(STDERR, "torture: no start signal in {$cfg['dir']}/go\n");
    exit(2);
}

/* One process' log: a line per event, appended (O_APPEND) and written through at once,
 * so that a process killed at any instant leaves every event it saw before the kill. */
final class TortureLog
{
    private $fh;

    public function __construct(string $file, private string $who)
    {
        $this->fh = fopen($file, 'a');
    }

    /* "<hrtime ns> <pid> <op> <event> <kind> <resource> <extra>" (event and what follows as
     * given); $t defaults to now */
    public function line(string $op, string $event, string $rest = '', ?int $t = null): void
    {
        $t ??= hrtime(true);
        fwrite($this->fh, $t . ' ' . getmypid() . ' ' . $op . ' ' . $event . ($rest === '' ? '' : ' ' . $rest) . "\n");
        fflush($this->fh);
    }
}

/* A plain RESP client on a TCP socket (not rlock): the faults, the dead owners' check and the
 * final scan. Every call is bounded by $timeout seconds; null when the server cannot be
 * reached or answers nothing in time. */
final class TortureResp
{
    private $s = null;

    public function __construct(public int $port, private float $timeout = 2.0)
    {
    }

    public function close(): void
    {
        if ($this->s) {
            @fclose($this->s);
        }
        $this->s = null;
    }

    public function cmd(string ...$args): mixed
    {
        for ($try = 0; $try < 2; $try++) {
            if (!$this->s) {
                $this->s = @stream_socket_client("tcp://127.0.0.1:{$this->port}", $errno, $errstr, $this->timeout);
                if (!$this->s) {
                    return null;
                }
                stream_set_timeout($this->s, (int) $this->timeout, (int) (fmod($this->timeout, 1) * 1e6));
            }
            $out = '*' . count($args) . "\r\n";
            foreach ($args as $a) {
                $out .= '$' . strlen($a) . "\r\n" . $a . "\r\n";
            }
            if (@fwrite($this->s, $out) === strlen($out)) {
                try {
                    return $this->read();
                } catch (RuntimeException) {
                }
            }
            $this->close();  // killed (CLIENT KILL), restarted: once more on a new connection
        }
        return null;
    }

    private function read(): mixed
    {
        $line = @fgets($this->s);
        if ($line === false || $line === '') {
            throw new RuntimeException('no reply');
        }
        $line = rtrim($line, "\r\n");
        $rest = substr($line, 1);
        switch ($line[0] ?? '') {
            case '+': return $rest;
            case '-': return ['error' => $rest];
            case ':': return (int) $rest;
            case '$':
                if ((int) $rest < 0) {
                    return null;
                }
                $data = '';
                while (strlen($data) < (int) $rest + 2) {
                    $chunk = @fread($this->s, (int) $rest + 2 - strlen($data));
                    if ($chunk === false || $chunk === '') {
                        throw new RuntimeException('short reply');
                    }
                    $data .= $chunk;
                }
                return substr($data, 0, -2);
            case '*':
                if ((int) $rest < 0) {
                    return null;
                }
                $items = [];
                for ($i = 0; $i < (int) $rest; $i++) {
                    $items[] = $this->read();
                }
                return $items;
        }
        throw new RuntimeException("bad reply: $line");
    }

    /* Every key of the server: name => [type, pttl, value, or members => score], and the
     * server's clock (ms) as '' => now. */
    public function dump(): ?array
    {
        $keys = [];
        $cursor = '0';
        for ($round = 0; $round < 10000; $round++) {
            $r = $this->cmd('SCAN', $cursor, 'COUNT', '1000');
            if (!is_array($r) || isset($r['error'])) {
                return null;
            }
            [$cursor, $names] = $r;
            foreach ($names as $k) {
                $keys[$k] = true;
            }
            if ($cursor === '0') {
                break;
            }
        }
        $out = [];
        foreach (array_keys($keys) as $k) {
            $k = (string) $k;
            $type = $this->cmd('TYPE', $k);
            $pttl = $this->cmd('PTTL', $k);
            $v = match ($type) {
                'string' => $this->cmd('GET', $k),
                'zset' => $this->cmd('ZRANGE', $k, '0', '-1', 'WITHSCORES'),
                'hash' => $this->cmd('HGETALL', $k),
                'set' => $this->cmd('SMEMBERS', $k),
                'list' => $this->cmd('LRANGE', $k, '0', '-1'),
                default => null,
            };
            if ($pttl === -2) {
                continue;  // expired meanwhile
            }
            if ($type === 'zset' && is_array($v)) {
                $m = [];
                for ($i = 0; $i + 1 < count($v); $i += 2) {
                    $m[(string) $v[$i]] = (float) $v[$i + 1];
                }
                $v = $m;
            }
            $out[$k] = [$type, $pttl, $v];
        }
        $t = $this->cmd('TIME');
        $out[''] = ['time', 0, is_array($t) && count($t) === 2 ? (int) $t[0] * 1000 + intdiv((int) $t[1], 1000) : 0];
        return $out;
    }
}

/* Where a token is held on the server, or null: a lock's value (the token, or the token
 * marked with the "+" that says waiters are counted: lua/lock/acquire.lua), or a member of a
 * read side's set whose score (its lease's end, the server's ms) is still ahead. Wait lists (a
 * waiter's place in a queue) and bookkeeping are not holds. */
function torture_token_held(array $dump, string $token): ?string
{
    $now = $dump[''][2] ?? 0;
    foreach ($dump as $k => [$type, , $v]) {
        if ($type === 'string' && ($v === $token || $v === "$token+")) {
            return (string) $k;
        }
        if ($type === 'zset' && is_array($v) && isset($v[$token]) && $v[$token] > $now) {
            return (string) $k;
        }
    }
    return null;
}

/* Parse one log line: [t, pid, op, event, kind, resource, extra => [k => v]]. */
function torture_parse(string $line): ?array
{
    $f = explode(' ', rtrim($line, "\n"));
    // (no ctype: the ZTS lane's PHP has no extension but rlock)
    if (count($f) < 4 || $f[0] === '' || strspn($f[0], '0123456789') !== strlen($f[0])) {
        return null;
    }
    $extra = [];
    foreach (array_slice($f, 6) as $kv) {
        $p = strpos($kv, '=');
        if ($p !== false) {
            $extra[substr($kv, 0, $p)] = substr($kv, $p + 1);
        }
    }
    return ['t' => (int) $f[0], 'pid' => (int) $f[1], 'op' => $f[2], 'event' => $f[3],
        'kind' => $f[4] ?? '', 'res' => $f[5] ?? '', 'x' => $extra];
}
