<?php
/*
 * A small network of the test's own: each server host in a network namespace of its own,
 * all plugged into a bridge in a "switch" namespace, and the root namespace (where PHPUnit
 * and its child processes run) plugged in too. Addresses come from one private /24 that
 * nothing on the machine uses; they exist only on these veths, so no packet of a test ever
 * leaves the machine. The switch cuts hosts off (partition(), heal()), and slows and drops
 * what goes to a host (degrade()): tc netem where the kernel has sch_netem, otherwise an
 * NFQUEUE that netdelay.c holds for the delay, with the loss drawn by nftables.
 *
 *   root ns: rlt-root 10.X.Y.1 --- [switch ns rlock-test-sw: bridge br0] --- rlt-NAME --- eth0 10.X.Y.N [ns rlock-test-NAME]
 *
 * Needs root, iproute2, nftables and iptables. One network at a time on a machine (roots
 * made by scripts/lib/root.sh included): a flock is held from construction to close(), so every rlock-test-* namespace and rlt-* link seen
 * while it is held is the leftover of a run that died, and is removed first.
 */

declare(strict_types=1);

final class Network
{
    public const PREFIX = 'rlock-test-';
    private const SWITCH = self::PREFIX . 'sw';
    private const UPLINK = 'rlt-root';
    private const SUBNETS = ['10.213.77', '10.213.78', '10.231.77', '172.29.213'];

    /** @var resource the flock */
    private $lock;
    private string $subnet;
    /** @var array<string, int> host name => last octet */
    private array $hosts = [];
    /** @var array<string, array{0: resource, 1: array}> netdelay processes by host */
    private array $delayers = [];
    private ?bool $netem = null;

    public function __construct(float $waitForLock = 300)
    {
        if (posix_geteuid() !== 0) {
            throw new RuntimeException('the network scenarios need root (network namespaces)');
        }
        foreach (['ip', 'tc', 'nft', 'iptables'] as $tool) {
            if (self::run(['sh', '-c', 'command -v ' . $tool], false)[0] !== 0) {
                throw new RuntimeException("$tool is not installed (iproute2, nftables, iptables)");
            }
        }
        // 'e': close-on-exec, or every process we start (servers, clients) would hold the lock too;
        // in /dev/shm, which scripts/lib/root.sh shares with its roots: a run in a Debian 13
        // root and one on the host use the same links and nftables of the root namespace
        $dir = is_dir('/dev/shm') && is_writable('/dev/shm') ? '/dev/shm' : sys_get_temp_dir();
        $this->lock = fopen($dir . '/' . self::PREFIX . 'network.lock', 'ce');
        $deadline = microtime(true) + $waitForLock;
        while (!flock($this->lock, LOCK_EX | LOCK_NB)) {
            if (microtime(true) > $deadline) {
                throw new RuntimeException("another test network is still up after $waitForLock s");
            }
            usleep(100000);
        }
        self::removeLeftovers();
        try {
            $this->subnet = self::freeSubnet();
            $this->up();
        } catch (Throwable $e) {
            $this->close();
            throw $e;
        }
    }

    /** Every namespace and link a run that died left behind (we hold the flock: none is in use). */
    private static function removeLeftovers(): void
    {
        foreach (self::namespaces() as $ns) {
            self::killIn($ns);
            self::run(['ip', 'netns', 'delete', $ns], false);
        }
        self::run(['ip', 'link', 'delete', self::UPLINK], false);
    }

    /** @return string[] the rlock-test-* namespaces */
    private static function namespaces(): array
    {
        $out = [];
        foreach (explode("\n", self::run(['ip', 'netns', 'list'])[1]) as $line) {
            $name = strtok($line, ' ');
            if ($name !== false && str_starts_with($name, self::PREFIX)) {
                $out[] = $name;
            }
        }
        return $out;
    }

    /** SIGKILL every process left in namespace $ns (each by its pid), and await their end. */
    private static function killIn(string $ns): void
    {
        $pids = array_filter(array_map('intval', explode("\n", self::run(['ip', 'netns', 'pids', $ns], false)[1])));
        foreach ($pids as $pid) {
            posix_kill($pid, SIGKILL);
        }
        $deadline = microtime(true) + 5;
        while ($pids && microtime(true) < $deadline) {
            $pids = array_filter($pids, [Processes::class, 'alive']);
            usleep(5000);
        }
    }

    /** The first of SUBNETS that no address or route of this machine mentions. */
    private static function freeSubnet(): string
    {
        $used = self::run(['ip', '-4', '-o', 'addr', 'show'])[1] . self::run(['ip', '-4', 'route', 'show', 'table', 'all'])[1];
        foreach (self::SUBNETS as $s) {
            if (!str_contains($used, $s . '.')) {
                return $s;
            }
        }
        throw new RuntimeException('every candidate /24 is in use here: ' . implode(', ', self::SUBNETS));
    }

    private function up(): void
    {
        self::run(['ip', 'netns', 'add', self::SWITCH]);
        $this->inSwitch(['ip', 'link', 'add', 'br0', 'type', 'bridge']);
        $this->inSwitch(['ip', 'link', 'set', 'br0', 'up']);
        self::run(['ip', 'link', 'add', self::UPLINK, 'type', 'veth', 'peer', 'name', 'uplink', 'netns', self::SWITCH]);
        $this->inSwitch(['ip', 'link', 'set', 'uplink', 'master', 'br0', 'up']);
        self::run(['ip', 'addr', 'add', $this->subnet . '.1/24', 'dev', self::UPLINK]);
        self::run(['ip', 'link', 'set', self::UPLINK, 'up']);
        // the switch's filter: a set of cut ports; degrade() adds its loss rules here
        $this->nft("add table bridge rlocktest\n"
            . "add set bridge rlocktest cut { type ifname; }\n"
            . "add chain bridge rlocktest links { type filter hook forward priority 0; policy accept; }\n"
            . "add rule bridge rlocktest links iifname @cut drop\n"
            . "add rule bridge rlocktest links oifname @cut drop\n");
    }

    /**
     * A host: namespace rlock-test-$name with eth0 on the switch; returns its address.
     * $name: a few letters and digits (a link is named rlt-$name, at most 15 bytes).
     */
    public function host(string $name): string
    {
        if (!preg_match('/^[a-z0-9]{1,8}$/', $name) || isset($this->hosts[$name])) {
            throw new InvalidArgumentException("bad or taken host name: $name");
        }
        $octet = 10 + count($this->hosts);
        $ns = self::PREFIX . $name;
        self::run(['ip', 'netns', 'add', $ns]);
        $this->hosts[$name] = $octet;
        $this->inSwitch(['ip', 'link', 'add', 'rlt-' . $name, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', $ns]);
        $this->inSwitch(['ip', 'link', 'set', 'rlt-' . $name, 'master', 'br0', 'up']);
        self::run(['ip', 'netns', 'exec', $ns, 'ip', 'addr', 'add', $this->subnet . '.' . $octet . '/24', 'dev', 'eth0']);
        self::run(['ip', 'netns', 'exec', $ns, 'ip', 'link', 'set', 'eth0', 'up']);
        self::run(['ip', 'netns', 'exec', $ns, 'ip', 'link', 'set', 'lo', 'up']);
        return $this->address($name);
    }

    public function address(string $name): string
    {
        return $this->subnet . '.' . $this->hosts[$name];
    }

    public static function namespace(string $name): string
    {
        return self::PREFIX . $name;
    }

    /** Cut the hosts off from everyone (clients, each other): their packets are dropped in the switch. */
    public function partition(string ...$names): void
    {
        $this->nft('add element bridge rlocktest cut { ' . $this->ports($names) . " }\n");
    }

    public function heal(string ...$names): void
    {
        $this->nft('delete element bridge rlocktest cut { ' . $this->ports($names) . " }\n");
    }

    private function ports(array $names): string
    {
        return implode(', ', array_map(fn ($n) => '"rlt-' . $n . '"', $names));
    }

    /**
     * What goes to host $name is held $delayMs and $lossPercent of it is dropped (the other way
     * is untouched), as `tc qdisc add dev rlt-$name root netem delay ... loss ...` on the
     * switch's port does. Without sch_netem in the kernel: the loss in the switch (nftables
     * numgen), the delay by netdelay behind an NFQUEUE in the host's INPUT chain.
     */
    public function degrade(string $name, int $delayMs, int $lossPercent): void
    {
        if ($this->netem() && $this->inSwitch(['tc', 'qdisc', 'add', 'dev', 'rlt-' . $name, 'root', 'netem',
                'delay', $delayMs . 'ms', 'loss', $lossPercent . '%'], false)[0] === 0) {
            return;
        }
        $this->nft("add rule bridge rlocktest links oifname \"rlt-$name\" numgen random mod 100 < $lossPercent drop\n");
        $ns = self::namespace($name);
        self::run(['ip', 'netns', 'exec', $ns, 'iptables', '-A', 'INPUT', '-i', 'eth0', '-j', 'NFQUEUE', '--queue-num', '0']);
        $this->delayers[$name] = Processes::startCommand(['ip', 'netns', 'exec', $ns, self::netdelay(), '0', (string) $delayMs]);
        $ready = Processes::readLine($this->delayers[$name][1], 5);
        if ($ready !== 'ready') {
            throw new RuntimeException("netdelay did not start: $ready");
        }
    }

    /** Whether tc netem works here (the kernel may be built without sch_netem, and without modules). */
    public function netem(): bool
    {
        if ($this->netem === null) {
            $this->netem = $this->inSwitch(['tc', 'qdisc', 'add', 'dev', 'uplink', 'root', 'netem', 'delay', '1ms'], false)[0] === 0;
            if ($this->netem) {
                $this->inSwitch(['tc', 'qdisc', 'del', 'dev', 'uplink', 'root']);
            }
        }
        return $this->netem;
    }

    /** netdelay.c built once per source version into the temporary directory. */
    private static function netdelay(): string
    {
        $src = __DIR__ . '/netdelay.c';
        $bin = sys_get_temp_dir() . '/' . self::PREFIX . 'netdelay-' . substr(md5_file($src), 0, 12);
        if (!is_executable($bin)) {
            self::run(['cc', '-O2', '-Wall', '-Wextra', '-o', $bin . '.' . getmypid(), $src]);
            rename($bin . '.' . getmypid(), $bin);
        }
        return $bin;
    }

    /** Stop what runs in the namespaces, remove them and the uplink, let the next network up. */
    public function close(): void
    {
        if (!isset($this->lock)) {
            return;
        }
        Processes::stopAll($this->delayers);
        $this->delayers = [];
        foreach (array_keys($this->hosts) as $name) {
            self::killIn(self::namespace($name));
            self::run(['ip', 'netns', 'delete', self::namespace($name)], false);
        }
        $this->hosts = [];
        self::run(['ip', 'netns', 'delete', self::SWITCH], false);
        self::run(['ip', 'link', 'delete', self::UPLINK], false);
        flock($this->lock, LOCK_UN);
        fclose($this->lock);
        unset($this->lock);
    }

    public function __destruct()
    {
        $this->close();
    }

    private function inSwitch(array $cmd, bool $check = true, string $stdin = ''): array
    {
        return self::run(array_merge(['ip', 'netns', 'exec', self::SWITCH], $cmd), $check, $stdin);
    }

    private function nft(string $script): void
    {
        $this->inSwitch(['nft', '-f', '-'], true, $script);
    }

    /**
     * Run a command (no shell) with $stdin as its input; [exit code, stdout, stderr]. With
     * $check a failure throws.
     * @return array{0: int, 1: string, 2: string}
     */
    public static function run(array $cmd, bool $check = true, string $stdin = ''): array
    {
        $p = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        fwrite($pipes[0], $stdin);
        fclose($pipes[0]);
        $out = stream_get_contents($pipes[1]);
        $err = stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        $rc = proc_close($p);
        if ($check && $rc !== 0) {
            throw new RuntimeException(implode(' ', $cmd) . " failed ($rc): $err" . ($stdin === '' ? '' : "\n$stdin"));
        }
        return [$rc, $out, $err];
    }
}
