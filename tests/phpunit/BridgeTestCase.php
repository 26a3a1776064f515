<?php
/* The framework bridge's scenarios (bridge/): one redis-server, and child processes that
 * load the bridge (bridge.php) and run a script given its options as JSON. */

declare(strict_types=1);

abstract class BridgeTestCase extends OneServerTestCase
{
    /** A hand-over is one round trip; anything near this bound means the waiter polled or slept. */
    protected const HANDOVER_MS = 1000;

    protected function options(array $more = []): array
    {
        return $more + ['server' => $this->redis->dsn(), 'prefix' => 'bridge:'];
    }

    /**
     * Start `php -r` with bridge.php loaded and $cfg in $cfg (decoded JSON, with the options
     * under 'opts'); returns its index in $this->children.
     */
    protected function startChild(string $code, array $cfg = []): int
    {
        $cfg += ['opts' => $this->options()];
        $this->children[] = Processes::start(
            'require $argv[1]; $cfg = json_decode($argv[2], true); ' . $code,
            [__DIR__ . '/bridge.php', json_encode($cfg)],
        );
        return array_key_last($this->children);
    }

    /** Wait for child $i to exit 0. */
    protected function finishChild(int $i): void
    {
        [$code, $out, $err] = Processes::finish(...$this->children[$i]);
        unset($this->children[$i]);
        $this->assertSame(0, $code, "child $i: $out $err");
    }

    protected function killChild(int $i): void
    {
        posix_kill(proc_get_status($this->children[$i][0])['pid'], SIGKILL);
        Processes::finish(...$this->children[$i]);
        unset($this->children[$i]);
    }

    /** Await $n clients blocked in Redis: waiters waiting natively, not polling. */
    protected function awaitBlocked(int $n): void
    {
        $this->await(fn() => (int) $this->client->info('clients')['blocked_clients'] === $n, "$n clients are blocked");
    }
}
