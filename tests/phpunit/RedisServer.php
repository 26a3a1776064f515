<?php

/**
 * A redis-server of the test's own on a free loopback port, stopped on destruct; or, with a
 * network namespace (Network::host()), bound to that host's address inside it.
 */
final class RedisServer
{
    public readonly int $port;
    public readonly string $host;
    private ?string $netns;
    private string $dir;
    private int $pid;
    /** @var resource|null the connection of command() */
    private $conn = null;

    /**
     * @param string[] $args extra redis-server arguments, e.g. ['--requirepass', 'x'] or
     *        ['--cluster-enabled', 'yes'] (a cluster node) or ['--sentinel'] (with $conf)
     * @param string[] $conf lines of a config file written to the server's own directory and
     *        given first (a Sentinel needs a writable one: it rewrites it)
     * @param string|null $netns the network namespace to run in (`ip netns exec`), where the
     *        server listens on $host only
     */
    public function __construct(array $args = [], ?int $port = null, array $conf = [],
        string $host = '127.0.0.1', ?string $netns = null)
    {
        $this->port = $port ?? self::freePort();
        $this->host = $host;
        $this->netns = $netns;
        $this->start($args, $conf);
    }

    private function start(array $args, array $conf): void
    {
        $this->dir = sys_get_temp_dir() . '/rlock-redis-' . $this->port . '-' . bin2hex(random_bytes(3));
        @mkdir($this->dir);
        $first = [];
        if ($conf) {
            file_put_contents($this->dir . '/redis.conf', implode("\n", $conf) . "\n");
            $first = [$this->dir . '/redis.conf'];
        }
        // a namespace's own address is on our veths only: no protected mode to get past
        $ns = $this->netns === null ? [] : ['ip', 'netns', 'exec', $this->netns];
        $open = $this->host === '127.0.0.1' ? [] : ['--protected-mode', 'no'];
        $cmd = array_merge($ns, ['redis-server'], $first, $open, ['--port', (string) $this->port, '--bind', $this->host,
            '--save', '', '--appendonly', 'no', '--dir', $this->dir, '--daemonize', 'yes',
            '--pidfile', $this->dir . '/redis.pid', '--logfile', $this->dir . '/redis.log'], $args);
        exec(implode(' ', array_map('escapeshellarg', $cmd)), $out, $rc);
        if ($rc !== 0) {
            throw new RuntimeException('redis-server did not start: ' . implode("\n", $out));
        }
        $this->awaitReady();
        $this->pid = (int) trim(file_get_contents($this->dir . '/redis.pid'));
    }

    public function __destruct()
    {
        $this->stop();
    }

    public static function freePort(): int
    {
        $s = stream_socket_server('tcp://127.0.0.1:0');
        $port = (int) explode(':', stream_socket_get_name($s, false))[1];
        fclose($s);
        return $port;
    }

    public function dsn(): string
    {
        return 'redis://' . $this->addr();
    }

    /** host:port */
    public function addr(): string
    {
        return $this->host . ':' . $this->port;
    }

    public function client(): Redis
    {
        $r = new Redis();
        $r->connect($this->host, $this->port, 2);
        return $r;
    }

    public function pid(): int
    {
        return $this->pid;
    }

    public function dir(): string
    {
        return $this->dir;
    }

    /**
     * One command over a plain socket of this object's own (no client library, no redirects
     * followed). Replies: string, int, null, list; an error reply comes back as
     * ['error' => message]. Throws when the server does not answer within $timeout seconds.
     */
    public function command(string ...$args): mixed
    {
        return $this->commandWithin(5.0, ...$args);
    }

    public function commandWithin(float $timeout, string ...$args): mixed
    {
        if ($this->conn) {
            // readable between commands: the server closed it (a restart, CLIENT KILL)
            $r = [$this->conn];
            $w = $e = null;
            if (stream_select($r, $w, $e, 0) !== 0) {
                fclose($this->conn);
                $this->conn = null;
            }
        }
        if (!$this->conn) {
            $this->conn = @stream_socket_client('tcp://' . $this->addr(), $errno, $errstr, 2);
            if (!$this->conn) {
                throw new RuntimeException("cannot connect to {$this->addr()}: $errstr");
            }
        }
        stream_set_timeout($this->conn, (int) $timeout, (int) (fmod($timeout, 1) * 1e6));
        $out = '*' . count($args) . "\r\n";
        foreach ($args as $a) {
            $out .= '$' . strlen($a) . "\r\n" . $a . "\r\n";
        }
        try {
            fwrite($this->conn, $out);
            return self::readReply($this->conn);
        } catch (Throwable $e) {
            fclose($this->conn);
            $this->conn = null;
            throw $e;
        }
    }

    /** INFO $section as field => value. */
    public function info(string $section = 'default'): array
    {
        $fields = [];
        foreach (explode("\n", (string) $this->command('INFO', $section)) as $line) {
            if (str_contains($line, ':')) {
                [$k, $v] = explode(':', rtrim($line, "\r"), 2);
                $fields[$k] = $v;
            }
        }
        return $fields;
    }

    /** A Sentinel's SENTINEL MASTER $service as field => value. */
    public function sentinelMaster(string $service): array
    {
        $flat = $this->command('SENTINEL', 'MASTER', $service);
        $out = [];
        for ($i = 0; $i + 1 < count($flat); $i += 2) {
            $out[$flat[$i]] = $flat[$i + 1];
        }
        return $out;
    }

    private static function readReply($s): mixed
    {
        $line = fgets($s);
        if ($line === false) {
            throw new RuntimeException(stream_get_meta_data($s)['timed_out'] ? 'no reply in time' : 'connection closed');
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
                    $chunk = fread($s, (int) $rest + 2 - strlen($data));
                    if ($chunk === false || $chunk === '') {
                        throw new RuntimeException('connection closed in a reply');
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
                    $items[] = self::readReply($s);
                }
                return $items;
        }
        throw new RuntimeException("bad reply: $line");
    }

    /** SIGKILL: the server dies at once, as in a crash. */
    public function kill(): void
    {
        $this->end([SIGKILL]);
    }

    public function pause(): void
    {
        posix_kill($this->pid, SIGSTOP);
    }

    public function resume(): void
    {
        posix_kill($this->pid, SIGCONT);
    }

    public function stop(): void
    {
        $this->end([SIGCONT, SIGTERM]);
    }

    /** Send the signals, await the end of the process (5 s at most), close our connection. */
    private function end(array $signals): void
    {
        if (isset($this->pid) && $this->pid > 0 && posix_kill($this->pid, 0)) {
            foreach ($signals as $signal) {
                posix_kill($this->pid, $signal);
            }
            $deadline = microtime(true) + 5;
            while (Processes::alive($this->pid) && microtime(true) < $deadline) {
                usleep(5000);
            }
        }
        $this->pid = 0;
        if ($this->conn) {
            fclose($this->conn);
            $this->conn = null;
        }
    }

    /** Start again on the same port (a restart loses every key: no persistence). */
    public function restart(): void
    {
        $this->stop();
        $this->start([], []);
    }

    private function awaitReady(): void
    {
        $deadline = microtime(true) + 5;
        while (microtime(true) < $deadline) {
            $s = @stream_socket_client('tcp://' . $this->addr(), $errno, $errstr, 0.2);
            if ($s) {
                fwrite($s, "PING\r\n");
                if (str_starts_with((string) fgets($s), '+PONG')) {
                    return;
                }
            }
            usleep(10000);
        }
        throw new RuntimeException("redis-server on {$this->addr()} did not answer");
    }
}
