<?php

/** A redis-server of the test's own on a free loopback port, stopped on destruct. */
final class RedisServer
{
    public readonly int $port;
    private string $dir;
    private int $pid;

    /** @param string[] $args extra redis-server arguments, e.g. ['--requirepass', 'x'] */
    public function __construct(array $args = [], ?int $port = null)
    {
        $this->port = $port ?? self::freePort();
        $this->dir = sys_get_temp_dir() . '/rlock-redis-' . $this->port . '-' . bin2hex(random_bytes(3));
        @mkdir($this->dir);
        $cmd = array_merge(['redis-server', '--port', (string) $this->port, '--bind', '127.0.0.1',
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
        return 'redis://127.0.0.1:' . $this->port;
    }

    public function client(): Redis
    {
        $r = new Redis();
        $r->connect('127.0.0.1', $this->port, 2);
        return $r;
    }

    public function pid(): int
    {
        return $this->pid;
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
        if (isset($this->pid) && $this->pid > 0 && posix_kill($this->pid, 0)) {
            posix_kill($this->pid, SIGCONT);
            posix_kill($this->pid, SIGTERM);
            $deadline = microtime(true) + 5;
            while (posix_kill($this->pid, 0) && microtime(true) < $deadline) {
                usleep(10000);
            }
        }
        $this->pid = 0;
    }

    /** Start again on the same port (a restart loses every key: no persistence). */
    public function restart(): void
    {
        $this->stop();
        $this->__construct([], $this->port);
    }

    private function awaitReady(): void
    {
        $deadline = microtime(true) + 5;
        while (microtime(true) < $deadline) {
            $s = @stream_socket_client('tcp://127.0.0.1:' . $this->port, $errno, $errstr, 0.2);
            if ($s) {
                fwrite($s, "PING\r\n");
                if (str_starts_with((string) fgets($s), '+PONG')) {
                    return;
                }
            }
            usleep(10000);
        }
        throw new RuntimeException("redis-server on port {$this->port} did not answer");
    }
}
