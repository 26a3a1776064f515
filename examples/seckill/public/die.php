<?php
/*
 * GET /die.php?sku=SKU&how=HOW[&api=sync|lock]
 *
 * Takes the lock of SKU the way buy.php does, then dies while holding it:
 *   fatal      a fatal error (memory limit exhausted)
 *   exception  an uncaught exception
 *   exit       exit() inside the critical section
 *   timeout    max_execution_time: set_time_limit(1) and a CPU busy loop
 *   killed     sleeps past php-fpm's request_terminate_timeout: the master kills the worker
 *
 * With api=sync (default) the death happens inside RLock::synchronized(); with api=lock
 * after a plain RLock::lock(). For every death but "killed" PHP still ends the request
 * and rlock must release at once; a killed worker's lock expires after its TTL.
 * Demo and test code only: never deploy this page.
 */

declare(strict_types=1);

require __DIR__ . '/../lib/shop.php';

$sku = seckill_param('sku');
$how = seckill_param('how');
$api = seckill_param('api', 'sync');
if (!in_array($how, ['fatal', 'exception', 'exit', 'timeout', 'killed'], true)
	|| !in_array($api, ['sync', 'lock'], true)) {
	seckill_respond(400, ['status' => 'bad_request']);
}

$die = function () use ($how): void {
	header('X-Seckill-Pid: ' . getmypid());
	switch ($how) {
		case 'fatal':
			ini_set('memory_limit', '32M');
			$blob = str_repeat('x', 64 << 20);
			echo strlen($blob); // not reached
			break;
		case 'exception':
			throw new RuntimeException('payment gateway exploded');
		case 'exit':
			echo "exit while holding the lock\n";
			exit(0);
		case 'timeout':
			set_time_limit(1);
			for ($i = 0; ; $i++) {
				// max_execution_time counts CPU time on Linux: burn it
			}
		case 'killed':
			sleep(3600);
	}
};

$lock = new RLock("seckill:$sku", seckill_lock_options(1000, true));
if ($api === 'sync') {
	$lock->synchronized($die);
} else {
	if (!$lock->lock()) {
		seckill_respond(503, ['status' => 'busy']);
	}
	$die();
}
seckill_respond(500, ['status' => 'survived']); // not reached
