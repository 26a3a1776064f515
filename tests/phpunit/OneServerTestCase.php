<?php
/* The scenarios against one redis-server of their own, started for each test, with a
 * client to look at it; child processes a test starts are stopped before the server. */

declare(strict_types=1);

use PHPUnit\Framework\TestCase;

abstract class OneServerTestCase extends TestCase
{
    protected RedisServer $redis;
    protected Redis $client;
    /** @var array<int, array{0: resource, 1: array}> */
    protected array $children = [];
    /** How long report() waits for a child's line by default. */
    protected const REPORT_SECONDS = 10;

    protected function setUp(): void
    {
        $this->redis = new RedisServer();
        $this->client = $this->redis->client();
    }

    protected function tearDown(): void
    {
        Processes::stopAll($this->children);
        $this->children = [];
        $this->redis->stop();
    }

    /** Poll until $cond holds, failing after $seconds (with what $explain() says, if given). */
    protected function await(callable $cond, string $what, float $seconds = 10, ?callable $explain = null): void
    {
        $deadline = microtime(true) + $seconds;
        while (!$cond()) {
            if (microtime(true) > $deadline) {
                $this->fail("timed out waiting until $what" . ($explain ? "\n" . $explain() : ''));
            }
            usleep(2000);
        }
    }

    /** Child $i's next line, JSON-decoded (within $seconds, default REPORT_SECONDS). */
    protected function report(int $i, ?float $seconds = null): array
    {
        [, $pipes] = $this->children[$i];
        $line = Processes::readLine($pipes, $seconds ?? static::REPORT_SECONDS);
        $r = json_decode($line, true);
        if (!is_array($r)) {
            // (its stderr is read only then: reading it waits for the child's exit)
            $this->fail("child $i printed: $line " . stream_get_contents($pipes[2]));
        }
        return $r;
    }
}
