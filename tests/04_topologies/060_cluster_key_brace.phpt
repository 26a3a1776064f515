--TEST--
With "cluster", a key with "}" outside a {hash tag} is a ValueError (its companion keys could not share its slot); tagged keys are fine
--EXTENSIONS--
rlock
--FILE--
<?php
$o = ['cluster' => ['127.0.0.1:7000']];
foreach (['a}b', '}x', '{}a}', 'plain', '{tag}a}b', 'a{b}c'] as $key) {
    try {
        new RLock($key, $o);
        echo "$key: ok\n";
    } catch (ValueError $e) {
        echo "$key: ", $e->getMessage(), "\n";
    }
}
// on one server the slot does not matter
new RLock('a}b');
echo "one server: ok\n";
?>
--EXPECT--
a}b: RLock::__construct(): Argument #1 ($key) must not contain "}" outside a {hash tag} with the "cluster" option, or its companion keys could not share its slot
}x: RLock::__construct(): Argument #1 ($key) must not contain "}" outside a {hash tag} with the "cluster" option, or its companion keys could not share its slot
{}a}: RLock::__construct(): Argument #1 ($key) must not contain "}" outside a {hash tag} with the "cluster" option, or its companion keys could not share its slot
plain: ok
{tag}a}b: ok
a{b}c: ok
one server: ok
