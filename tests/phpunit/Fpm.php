<?php
/*
 * A php-fpm of the PHP running the tests, with rlock loaded: one pool (pm = static, one
 * worker unless told), spoken to directly over FastCGI, no web server in between. Each
 * request's response has ended (FCGI_END_REQUEST) when get() returns: what the request
 * left in Redis is what outlives it.
 */

declare(strict_types=1);

final class Fpm
{
    /** the php-fpm of the PHP running the tests */
    public const BINARY = '/usr/sbin/php-fpm' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION;

    /** where the pool's files are: its scripts go here too */
    public readonly string $dir;
    private int $port;
    /** @var resource|null */
    private $proc = null;

    /**
     * A php-fpm of $workers workers, started, with -d settings $d for the master and $pool
     * lines for the pool; the test is skipped where php-fpm is not installed.
     */
    public static function start(int $workers = 1, array $d = [], array $pool = []): self
    {
        if (!is_executable(self::BINARY)) {
            PHPUnit\Framework\Assert::markTestSkipped(self::BINARY . ' is not installed (php' . PHP_MAJOR_VERSION . '.'
                . PHP_MINOR_VERSION . '-fpm)');
        }
        return new self($workers, $d, $pool);
    }

    private function __construct(int $workers, array $d, array $pool)
    {
        $this->dir = sys_get_temp_dir() . '/rlock-fpm-' . getmypid() . '-' . bin2hex(random_bytes(3));
        mkdir($this->dir);
        // a copy: a rebuild rewriting modules/rlock.so in place must not change a running worker
        copy(getenv('RLOCK_EXT') ?: dirname(__DIR__, 2) . '/modules/rlock.so', "$this->dir/rlock.so");
        $this->port = RedisServer::freePort();
        file_put_contents("$this->dir/php-fpm.conf", implode("\n", [
            '[global]',
            "error_log = $this->dir/php-fpm.log",
            'daemonize = no',
            '[www]',
            "listen = 127.0.0.1:$this->port",
            'pm = static',
            "pm.max_children = $workers",
            'catch_workers_output = yes',
            'php_admin_flag[display_errors] = on',
            ...$pool,
        ]) . "\n");
        $cmd = [self::BINARY, '-n', '-d', "extension=$this->dir/rlock.so"];
        foreach ($d as $setting) {
            array_push($cmd, '-d', $setting);
        }
        array_push($cmd, '-y', "$this->dir/php-fpm.conf", '-p', $this->dir);
        if (posix_getuid() === 0) {
            $cmd[] = '-R';
        }
        $this->proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$this->dir/php-fpm.out", 'w'],
            2 => ['file', "$this->dir/php-fpm.out", 'a']], $pipes);
        $deadline = microtime(true) + 10;
        while (@stream_socket_client("tcp://127.0.0.1:$this->port") === false) {
            if (microtime(true) > $deadline) {
                throw new RuntimeException('php-fpm does not listen: ' . @file_get_contents("$this->dir/php-fpm.out"));
            }
            usleep(2000);
        }
    }

    /** Stop php-fpm, keeping its files; what it wrote (its output and its log). */
    public function halt(): string
    {
        if ($this->proc) {
            proc_terminate($this->proc);
            proc_close($this->proc);
            $this->proc = null;
        }
        return @file_get_contents("$this->dir/php-fpm.out") . @file_get_contents("$this->dir/php-fpm.log");
    }

    /** Stop php-fpm and remove its files. */
    public function stop(): void
    {
        $this->halt();
        array_map('unlink', glob("$this->dir/*") ?: []);
        @rmdir($this->dir);
    }

    /** A FastCGI name-value pair: lengths of one byte below 128, else four. */
    private static function pair(string $name, string $value): string
    {
        $len = fn (string $s): string => strlen($s) < 128 ? chr(strlen($s)) : pack('N', strlen($s) | 0x80000000);
        return $len($name) . $len($value) . $name . $value;
    }

    /** One record: version 1, request id 1, no padding. */
    private static function record(int $type, string $body): string
    {
        return pack('CCnnCx', 1, $type, 1, strlen($body), 0) . $body;
    }

    /**
     * GET $script?$query from php-fpm (its pool [www], or the pool listening on $port); returns
     * the body once FCGI_END_REQUEST arrived.
     */
    public function get(string $script, string $query = '', int $port = 0): string
    {
        $port = $port ?: $this->port;
        $s = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 5);
        if ($s === false) {
            throw new RuntimeException("php-fpm: $errstr");
        }
        stream_set_timeout($s, 10);
        $params = '';
        foreach (['SCRIPT_FILENAME' => $script, 'SCRIPT_NAME' => '/' . basename($script),
            'REQUEST_METHOD' => 'GET', 'QUERY_STRING' => $query, 'SERVER_PROTOCOL' => 'HTTP/1.1',
            'GATEWAY_INTERFACE' => 'CGI/1.1', 'REMOTE_ADDR' => '127.0.0.1'] as $name => $value) {
            $params .= self::pair($name, $value);
        }
        // BEGIN_REQUEST (role responder, close the connection after), PARAMS, STDIN
        fwrite($s, self::record(1, pack('nCx5', 1, 0)) . self::record(4, $params) . self::record(4, '')
            . self::record(5, ''));
        $stdout = '';
        $read = function (int $n) use ($s): string {
            $data = '';
            while (strlen($data) < $n && !feof($s) && ($chunk = fread($s, $n - strlen($data))) !== false) {
                $data .= $chunk;
            }
            if (strlen($data) !== $n) {
                throw new RuntimeException('php-fpm closed the connection mid-record');
            }
            return $data;
        };
        while (true) {
            $h = unpack('Cversion/Ctype/nid/nlength/Cpadding', $read(8));
            $body = $read($h['length'] + $h['padding']);
            if ($h['type'] === 6) {
                $stdout .= substr($body, 0, $h['length']);
            } elseif ($h['type'] === 3) {
                fclose($s);
                return substr($stdout, strpos($stdout, "\r\n\r\n") + 4);  // the body, past the headers
            }
        }
    }
}
