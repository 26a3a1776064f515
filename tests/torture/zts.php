<?php
/* The ZTS lane's request script for tests/zts/harness.c: each thread's request is a torture
 * worker (worker.php, its arguments from the environment); the harness' setup and check
 * phases, which run in one request of its main thread, do nothing (worker.php declares
 * functions: included twice in one request it could not be). */
if ($phase === 'request') {
    require __DIR__ . '/worker.php';
}
