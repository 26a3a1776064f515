<?php
/*
 * The bridge package's copies of the PHP surface, made from rlock.stub.php (the one source):
 *   bridge/stubs/rlock.php  every class, interface and method, for IDEs and static analysers
 *                           (PhpStorm indexes it; PHPStan reads it through
 *                           bridge/phpstan/rlock.neon), with array shapes for the options;
 *   bridge/polyfill.php     the interfaces and the exceptions alone, declared only where the
 *                           extension is not loaded: code typed against them, and the
 *                           bridge's in-memory test doubles, run without the extension.
 *
 *   php scripts/gen_bridge_stubs.php           write them
 *   php scripts/gen_bridge_stubs.php --check   exit 1 when either is not what the stub makes
 *                                              (scripts/release-check.sh runs it)
 *
 * The stub is read as text: gen_stub.php's format, as rlock.stub.php writes it (a docblock
 * above each method, one line per signature, classes in `namespace {`, interfaces in
 * `namespace RLock {`). The options' shapes are RLock\Bridge\Options' (bridge/src/Options.php).
 */

declare(strict_types=1);

function rlock_shape(array $options): string
{
    $fields = [];
    foreach ($options as $name => $type) {
        $fields[] = "$name?: $type";
    }
    return 'array{' . implode(', ', $fields) . '}';
}

/**
 * $doc (a docblock, or '' for none) with "@param TYPE $name" for each of $params (name =>
 * type, in the signature's order): a @param already there gets the type, the others are
 * added at its end. $indent: the signature's.
 */
function rlock_doc_params(string $doc, string $indent, array $params): string
{
    if ($doc === '') {
        $doc = "$indent/**\n$indent */";
    } elseif (!str_contains($doc, "\n")) {
        // a one-line docblock: "/** text */"
        preg_match('~/\*\*\s*(.*?)\s*\*/~', $doc, $m);
        $doc = "$indent/**\n$indent * $m[1]\n$indent */";
    }
    $add = [];
    foreach ($params as $name => $type) {
        $re = '/@param\s+\S+(\s+\$' . $name . '\b)/';
        if (preg_match($re, $doc)) {
            $doc = preg_replace($re, "@param $type\$1", $doc);
        } else {
            $add[] = "$indent * @param $type \$$name";
        }
    }
    if ($add) {
        $text = preg_match('~\n\s*\* \S~', $doc) && !str_contains($doc, '@param');
        $doc = preg_replace('~\n\s*\*/$~', "\n" . ($text ? "$indent *\n" : '') . implode("\n", $add) . "\n$indent */", $doc);
    }
    return $doc;
}

function rlock_make_stubs(string $stub): array
{
    require_once dirname(__DIR__) . '/bridge/src/Options.php';
    $shapes = [];
    foreach (array_keys(RLock\Bridge\Options::REFUSED) as $of) {
        $shapes[$of] = RLock\Bridge\Options::of($of);
    }
    // gen_stub's own annotations are not for users
    $stub = preg_replace('~/\*\*\n \* @generate-class-entries\n(?: \* @generate-[^\n]*\n)* \*/\n\n~', '', $stub, 1, $n);
    if ($n !== 1) {
        throw new RuntimeException('rlock.stub.php: no @generate-class-entries header');
    }
    $stub = preg_replace('~\n(\s*) \*\n\s* \* @strict-properties\n\s* \* @not-serializable\n~', "\n", $stub);
    $stub = preg_replace('~\n\s* \* @(?:strict-properties|not-serializable)\n~', "\n", $stub);

    // the options' shapes, and a list of keys for multi()
    $class = null;
    $out = '';
    $doc = '';
    $inDoc = false;
    foreach (preg_split('/(?<=\n)/', $stub) as $line) {
        if ($inDoc || preg_match('~^\s*/\*\*~', $line)) {
            // a docblock, kept until the line it belongs to
            $doc .= $line;
            $inDoc = !str_contains($line, '*/');
            continue;
        }
        if (preg_match('/^\s*(?:final )?(?:class|interface) (\w+)/', $line, $m)) {
            $class = $m[1];
        }
        if (preg_match('/^(\s*)(?:public )?(?:static )?function (\w+)\((.*)\)/', $line, $m)) {
            $shape = $shapes["$class::$m[2]"] ?? $shapes[$class] ?? null;
            $params = [];
            preg_match_all('/\barray \$(\w+)/', $m[3], $arrays);
            foreach ($arrays[1] as $name) {
                if ($name === 'options' && $shape === null) {
                    throw new RuntimeException("rlock.stub.php: no option shape for $class::$m[2]");
                }
                $params[$name] = match ($name) {
                    'options' => rlock_shape($shape),
                    'keys' => 'list<string>',
                    'limiters' => 'list<RRateLimiter>',
                    default => throw new RuntimeException("rlock.stub.php: $class::$m[2]: no type for array \$$name"),
                };
            }
            if ($params) {
                $doc = rlock_doc_params(rtrim($doc, "\n"), $m[1], $params) . "\n";
            }
        }
        $out .= $doc . $line;
        $doc = '';
    }
    $head = "<?php\n\n/*\n * The rlock extension's PHP surface, for IDEs and static analysers: generated from\n"
        . " * rlock.stub.php by scripts/gen_bridge_stubs.php, do not edit. Never loaded by PHP: the\n"
        . " * extension declares all of it (bridge/polyfill.php declares the interfaces and the\n"
        . " * exceptions where the extension is not loaded).\n */\n\n";
    $stubs = $head . substr($out, strlen("<?php\n\n"));

    // the polyfill: the interfaces, and the exceptions (their one method made to work)
    if (!preg_match('/^namespace RLock \{\n(.*?)^\}\n/ms', $stubs, $ns)
            || !preg_match_all('/^    (?:\/\*\*[^\n]*\*\/\n    )?class RLock\w*Exception extends \w+\n    \{\n.*?^    \}\n/ms', $stubs, $ex)) {
        throw new RuntimeException('rlock.stub.php: no interfaces in "namespace RLock {", or no exceptions');
    }
    $exceptions = str_replace('public function getResult(): mixed {}',
        "public function getResult(): mixed\n        {\n            return \$this->result;\n        }", implode("\n", $ex[0]));
    if (preg_match('/\)(?:: [\w?]+)? \{\}/', $exceptions)) {
        throw new RuntimeException('an exception of rlock.stub.php has a method the polyfill has no body for');
    }
    $indent = fn (string $s): string => preg_replace('/^(?=.)/m', '    ', $s);
    $polyfill = "<?php\n\n/*\n * The interfaces and exceptions of the rlock extension, declared where it is not loaded:\n"
        . " * code typed against them, and the in-memory test doubles of RLock\\Bridge\\Testing, run\n"
        . " * without it. Generated from rlock.stub.php by scripts/gen_bridge_stubs.php, do not edit.\n */\n\n"
        . "namespace RLock {\n    if (!interface_exists(LockInterface::class, false)) {\n"
        . rtrim($indent($ns[1]), "\n") . "\n    }\n}\n\n"
        . "namespace {\n    if (!class_exists(RLockException::class, false)) {\n"
        . rtrim($indent($exceptions), "\n") . "\n    }\n}\n";
    return ['bridge/stubs/rlock.php' => $stubs, 'bridge/polyfill.php' => $polyfill];
}

$repo = dirname(__DIR__);
$check = in_array('--check', $argv, true);
$status = 0;
foreach (rlock_make_stubs(file_get_contents("$repo/rlock.stub.php")) as $path => $text) {
    if ($check) {
        if (@file_get_contents("$repo/$path") !== $text) {
            fwrite(STDERR, "$path is not what rlock.stub.php makes: run php scripts/gen_bridge_stubs.php\n");
            $status = 1;
        }
    } else {
        @mkdir(dirname("$repo/$path"), 0777, true);
        file_put_contents("$repo/$path", $text);
        echo "Saved $path\n";
    }
}
exit($status);
