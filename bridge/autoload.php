<?php
/* The bridge's classes (PSR-4 RLock\Bridge\ in src/) for code that does not use composer's
 * autoloader, and the extension's interfaces and exceptions where it is not loaded
 * (polyfill.php: the in-memory test doubles run without it); the framework's own classes
 * come from its autoloader. */

declare(strict_types=1);

require_once __DIR__ . '/polyfill.php';

spl_autoload_register(static function (string $class): void {
    $prefix = 'RLock\\Bridge\\';
    if (strncmp($class, $prefix, strlen($prefix)) === 0) {
        $file = __DIR__ . '/src/' . strtr(substr($class, strlen($prefix)), '\\', '/') . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
