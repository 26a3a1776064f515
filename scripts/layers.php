<?php
// The layers of the source, checked on a build: which file uses which, read from the object
// files' symbols (nm: what each defines, what each leaves undefined), and two rules over
// that graph:
//   - no loop: no two files use each other, directly or around a loop of files;
//   - downward only: a file uses files of its own layer or of a layer below, never above.
// The layers, top down, are LAYERS below (docs/design.md draws them). Where a lower layer
// must tell a higher one something (a context ended, a lease found gone), the higher one
// registers a callback at MINIT: the lower file holds a function pointer, and no symbol.
//   php scripts/layers.php [BUILD_DIR]     (default: the repo, after make)
//   php scripts/layers.php --graph [DIR]   prints the graph: file -> file: symbols
declare(strict_types=1);

const LAYERS = [
    'rlock.c',          // module entry: MINIT..MINFO, php.ini, functions
    'src/php',          // the PHP classes, one file each, and what they share
    'src/state',        // per process: registry, execution contexts, watchdog, lost locks
    'src/primitives',   // each lock kind's algorithm and its scripts
    'src/transport',    // connections, the pool, routing (Sentinel, Cluster), replies
    'src/runtime',      // what a runtime takes over (Swoole coroutines)
    'src/stats',        // statistics
    'src/core',         // options, errors, module globals, the clock
];

$args = array_slice($argv, 1);
$graph = ($args[0] ?? '') === '--graph';
if ($graph) {
    array_shift($args);
}
$dir = rtrim($args[0] ?? dirname(__DIR__), '/');

// rlock.c is built as .libs/rlock.o, src/x/y.c as src/x/.libs/y.o
$objects = [];
$it = new RecursiveIteratorIterator(new RecursiveDirectoryIterator($dir, FilesystemIterator::SKIP_DOTS));
foreach ($it as $f) {
    $p = substr($f->getPathname(), strlen($dir) + 1);
    if (preg_match('#^((?:src/.+/)?)\.libs/([^/]+)\.o$#', $p, $m)) {
        $objects[$m[1] . $m[2] . '.c'] = $f->getPathname();
    }
}
if (!isset($objects['rlock.c'])) {
    fwrite(STDERR, "layers: no object files under $dir (build first: phpize, configure, make)\n");
    exit(2);
}
ksort($objects);

$defined = [];  // symbol => file
$uses = [];     // file => [symbol]
foreach ($objects as $file => $o) {
    exec('nm -g ' . escapeshellarg($o), $lines, $rc);
    $rc === 0 or exit("layers: nm $o failed\n");
    $uses[$file] = [];
    foreach ($lines as $l) {
        if (preg_match('/^\s*[0-9a-fA-F]*\s+([A-Za-z])\s+(\S+)$/', $l, $m)) {
            if ($m[1] === 'U') {
                $uses[$file][] = $m[2];
            } elseif (!isset($defined[$m[2]]) || $m[1] !== 'V' && $m[1] !== 'W') {
                $defined[$m[2]] = $file;
            }
        }
    }
    $lines = [];
}
$edges = [];    // from => [to => [symbol]]
foreach ($uses as $from => $symbols) {
    $edges[$from] = [];
    foreach ($symbols as $s) {
        $to = $defined[$s] ?? null;
        if ($to !== null && $to !== $from) {
            $edges[$from][$to][] = $s;
        }
    }
    ksort($edges[$from]);
}
if ($graph) {
    foreach ($edges as $from => $tos) {
        foreach ($tos as $to => $s) {
            echo "$from -> $to: ", implode(' ', array_unique($s)), "\n";
        }
    }
    exit(0);
}

function layer(string $file): ?int
{
    foreach (LAYERS as $i => $l) {
        if ($file === $l || str_starts_with($file, "$l/")) {
            return $i;
        }
    }
    return null;
}

$problems = [];
foreach (array_keys($objects) as $file) {
    if (layer($file) === null) {
        $problems[] = "$file is in no layer (scripts/layers.php, LAYERS)";
    }
}
// upward: a use of a file in a layer above
foreach ($edges as $from => $tos) {
    foreach ($tos as $to => $s) {
        $a = layer($from);
        $b = layer($to);
        if ($a !== null && $b !== null && $b < $a) {
            $problems[] = "$from (" . LAYERS[$a] . ") uses $to (" . LAYERS[$b] . ", a layer above): " . implode(' ', array_unique($s));
        }
    }
}
// loops: the strongly connected components of more than one file (Tarjan), each shown as one
// loop through its files
$index = [];
$low = [];
$stack = [];
$on = [];
$n = 0;
$loops = [];
$visit = function (string $v) use (&$visit, &$index, &$low, &$stack, &$on, &$n, &$loops, $edges): void {
    $index[$v] = $low[$v] = $n++;
    $stack[] = $v;
    $on[$v] = true;
    foreach (array_keys($edges[$v] ?? []) as $w) {
        if (!isset($index[$w])) {
            $visit($w);
            $low[$v] = min($low[$v], $low[$w]);
        } elseif (!empty($on[$w])) {
            $low[$v] = min($low[$v], $index[$w]);
        }
    }
    if ($low[$v] === $index[$v]) {
        $scc = [];
        do {
            $w = array_pop($stack);
            $on[$w] = false;
            $scc[] = $w;
        } while ($w !== $v);
        if (count($scc) > 1) {
            $loops[] = $scc;
        }
    }
};
foreach (array_keys($edges) as $v) {
    if (!isset($index[$v])) {
        $visit($v);
    }
}
foreach ($loops as $scc) {
    // one loop through the component: a shortest path back to its first file
    sort($scc);
    $in = array_flip($scc);
    $start = $scc[0];
    $prev = [$start => null];
    $queue = [$start];
    $cycle = null;
    while ($queue && $cycle === null) {
        $v = array_shift($queue);
        foreach (array_keys($edges[$v] ?? []) as $w) {
            if (!isset($in[$w])) {
                continue;
            }
            if ($w === $start) {
                for ($cycle = [$start], $u = $v; $u !== null; $u = $prev[$u]) {
                    array_unshift($cycle, $u);
                }
                break;
            }
            if (!array_key_exists($w, $prev)) {
                $prev[$w] = $v;
                $queue[] = $w;
            }
        }
    }
    $steps = [];
    for ($i = 0; $i + 1 < count($cycle); $i++) {
        $steps[] = $cycle[$i] . ' -> ' . $cycle[$i + 1] . ' (' . implode(' ', array_slice(array_unique($edges[$cycle[$i]][$cycle[$i + 1]]), 0, 3)) . ')';
    }
    $problems[] = 'a loop among ' . implode(', ', $scc) . ': ' . implode(', ', $steps);
}

if ($problems) {
    foreach ($problems as $p) {
        fwrite(STDERR, "layers: $p\n");
    }
    exit(1);
}
$count = array_sum(array_map('count', $edges));
echo 'layers: ', count($objects), " files, $count uses between them, no loop, none upward (",
    implode(' > ', LAYERS), ")\n";
