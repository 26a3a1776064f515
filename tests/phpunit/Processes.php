<?php

/** PHP child processes that load the extension, for scenarios across processes. */
final class Processes
{
    /** The php command line that loads rlock the way this PHPUnit run does. */
    public static function php(): array
    {
        $ext = getenv('RLOCK_EXT') ?: dirname(__DIR__, 2) . '/modules/rlock.so';
        return [PHP_BINARY, '-d', 'extension=' . $ext];
    }

    /**
     * Start `php -r $code` with $args; returns the proc_open handle and its pipes.
     * @return array{0: resource, 1: array}
     */
    public static function start(string $code, array $args = []): array
    {
        return self::startCommand(array_merge(self::php(), ['-r', $code, '--'], array_map('strval', $args)));
    }

    /**
     * Start a command (no shell) with its stdout and stderr piped to us.
     * @return array{0: resource, 1: array}
     */
    public static function startCommand(array $cmd): array
    {
        $proc = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        if (!is_resource($proc)) {
            throw new RuntimeException('cannot start ' . $cmd[0]);
        }
        fclose($pipes[0]);
        return [$proc, $pipes];
    }

    /** Read one line the child prints (a readiness signal), waiting at most $seconds. */
    public static function readLine(array $pipes, float $seconds = 10): string
    {
        $r = [$pipes[1]];
        $w = $e = null;
        if (stream_select($r, $w, $e, (int) $seconds, (int) (fmod($seconds, 1) * 1e6)) < 1) {
            throw new RuntimeException('child printed nothing within ' . $seconds . ' s: ' . stream_get_contents($pipes[2]));
        }
        return rtrim((string) fgets($pipes[1]), "\n");
    }

    /** Wait for the child to exit; its exit code, stdout and stderr. */
    public static function finish($proc, array $pipes): array
    {
        $out = stream_get_contents($pipes[1]);
        $err = stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        $code = proc_close($proc);
        return [$code, $out, $err];
    }

    /** Kill (SIGKILL) the children still running and collect them all. */
    public static function stopAll(array $children): void
    {
        foreach ($children as [$proc, $pipes]) {
            $status = proc_get_status($proc);
            if ($status['running']) {
                posix_kill($status['pid'], SIGKILL);
            }
            self::finish($proc, $pipes);
        }
    }

    /** Whether the process runs (a zombie waiting to be reaped does not). */
    public static function alive(int $pid): bool
    {
        if (!posix_kill($pid, 0)) {
            return false;
        }
        $stat = @file_get_contents("/proc/$pid/stat");
        return $stat === false || !preg_match('/^\d+ \(.*\) Z/', $stat);
    }
}
