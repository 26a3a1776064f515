--TEST--
phpinfo() masks every password the DSN parser would send, in list entries without a scheme (host:port with credentials) and in malformed entries, set in php.ini or with ini_set()
--EXTENSIONS--
rlock
--INI--
pcre.jit=0
rlock.sentinel="admin:S3cret1@127.0.0.1:26379"
rlock.cluster=":S3cret2@127.0.0.1:7000, S3cret3@127.0.0.1:7001"
rlock.servers="redis://u:S3cret4@127.0.0.1:7002/1, u:S3cret5@127.0.0.1:notaport,redis:/u:S3cret6@127.0.0.1"
--FILE--
<?php
function rows(): void {
    ob_start();
    phpinfo(INFO_MODULES);
    $info = ob_get_clean();
    if (preg_match_all('/S3cret\d+/', $info, $leaks)) {
        echo "LEAK: ", implode(', ', array_unique($leaks[0])), "\n";
    }
    preg_match_all('/^rlock\.(servers|cluster|sentinel) => (.*)$/m', $info, $m);
    echo implode("\n", $m[0]), "\n";
}
rows();
// what the parser takes as the password, and only that, is masked: a user name stays; an '@'
// in a socket path or a database is not a credential
ini_set('rlock.sentinel', 'user:p%40ss:S3cret7@[::1]:26379, unix:///run/a@b.sock, tcp://host:1/2');
ini_set('rlock.cluster', 'S3cret8@x@127.0.0.1:7000,redis://127.0.0.1:7000/0@S3cret9@h, ,somehost');
rows();
// and the parser takes the same as the password
try {
    new RLock('k', ['cluster' => [':S3cret2@127.0.0.1:65536']]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
rlock.cluster => :***@127.0.0.1:7000, ***@127.0.0.1:7001 => :***@127.0.0.1:7000, ***@127.0.0.1:7001
rlock.sentinel => admin:***@127.0.0.1:26379 => admin:***@127.0.0.1:26379
rlock.servers => redis://u:***@127.0.0.1:7002/1, ***@127.0.0.1:notaport,***@127.0.0.1 => redis://u:***@127.0.0.1:7002/1, ***@127.0.0.1:notaport,***@127.0.0.1
rlock.cluster => ***@127.0.0.1:7000,redis://***@h, ,somehost => :***@127.0.0.1:7000, ***@127.0.0.1:7001
rlock.sentinel => user:***@[::1]:26379, unix:///run/a@b.sock, tcp://host:1/2 => admin:***@127.0.0.1:26379
rlock.servers => redis://u:***@127.0.0.1:7002/1, ***@127.0.0.1:notaport,***@127.0.0.1 => redis://u:***@127.0.0.1:7002/1, ***@127.0.0.1:notaport,***@127.0.0.1
RLock::__construct(): Argument #2 ($options) option "cluster" entry 0 has an invalid port: it must be between 1 and 65535
