<?php
/*
 * GET /status/    the pool's locks, live: hot keys, acquires, waits (p50, p99), timeouts,
 * lost locks, servers, and a chart of the last two minutes. Rendered once here, then updated
 * every second from status.php by the script at the bottom (plain JS, inline SVG: no CDN, no
 * build step). scripts/demo.sh prints its address while the sale runs.
 */

declare(strict_types=1);

require_once __DIR__ . '/lib.php';

$view = rlock_status_view();
$h = fn (mixed $v): string => htmlspecialchars((string) $v, ENT_QUOTES | ENT_SUBSTITUTE);
$ms = fn (float $v): string => $v < 10 ? number_format($v, 2) : number_format($v, 0);
header('Cache-Control: no-store');
?><!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>rlock: locks of this pool</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  :root { --fg: #1d2430; --muted: #667085; --line: #e4e7ec; --acq: #2563eb; --wait: #f59e0b; --bad: #dc2626; --ok: #16a34a; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: #f6f7f9; }
  header { padding: 14px 24px; background: #111827; color: #fff; display: flex; align-items: baseline; gap: 16px; }
  header h1 { font-size: 18px; margin: 0; }
  header .sub { color: #9ca3af; }
  main { padding: 18px 24px; max-width: 1200px; }
  .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(130px, 1fr)); gap: 10px; margin-bottom: 16px; }
  .card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
  .card .v { font-size: 22px; font-weight: 600; font-variant-numeric: tabular-nums; }
  .card .l { color: var(--muted); font-size: 12px; }
  .card.bad .v { color: var(--bad); }
  section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; margin-bottom: 16px; }
  section h2 { font-size: 14px; margin: 0 0 8px; }
  table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
  th, td { text-align: right; padding: 4px 8px; border-bottom: 1px solid var(--line); white-space: nowrap; }
  th:first-child, td:first-child { text-align: left; }
  td.key { font-family: ui-monospace, Menlo, monospace; max-width: 420px; overflow: hidden; text-overflow: ellipsis; }
  th { color: var(--muted); font-weight: 500; font-size: 12px; }
  .legend span { display: inline-block; margin-right: 14px; color: var(--muted); font-size: 12px; }
  .legend i { display: inline-block; width: 10px; height: 3px; vertical-align: middle; margin-right: 4px; }
  svg text { font-size: 10px; fill: var(--muted); }
  .off { color: var(--bad); }
  #updated.stale { color: #fbbf24; font-weight: 600; }
  body.stale main { opacity: .55; }
</style>
</head>
<body>
<header>
  <h1>rlock: locks of this pool</h1>
  <span class="sub">every php-fpm worker's numbers, from shared memory &middot; <span id="updated">as rendered</span></span>
</header>
<main>
<?php if (!$view['enabled']): ?>
  <p class="off" id="off"><?= $h($view['why']) ?></p>
<?php else: $p = $view['pool']; ?>
  <div class="cards" id="cards">
    <div class="card"><div class="v" data-f="acquires"><?= $h($p['acquires']) ?></div><div class="l">acquires</div></div>
    <div class="card"><div class="v" data-f="waits"><?= $h($p['waits']) ?></div><div class="l">waits</div></div>
    <div class="card"><div class="v" data-f="p50_ms"><?= $ms($p['p50_ms']) ?></div><div class="l">wait p50 (ms)</div></div>
    <div class="card"><div class="v" data-f="p99_ms"><?= $ms($p['p99_ms']) ?></div><div class="l">wait p99 (ms)</div></div>
    <div class="card"><div class="v" data-f="timeouts"><?= $h($p['timeouts']) ?></div><div class="l">timeouts</div></div>
    <div class="card"><div class="v" data-f="lost"><?= $h($p['lost']) ?></div><div class="l">lost</div></div>
    <div class="card"><div class="v" data-f="holds"><?= $h($p['holds']) ?></div><div class="l">held now</div></div>
    <div class="card"><div class="v" data-f="waiters"><?= $h($p['waiters']) ?></div><div class="l">waiting now</div></div>
  </div>
  <section>
    <h2>the last two minutes</h2>
    <div class="legend"><span><i style="background:var(--acq)"></i>acquires/s</span><span><i style="background:var(--wait)"></i>waits/s</span><span><i style="background:var(--bad)"></i>timeouts/s + lost/s</span></div>
    <svg id="chart" viewBox="0 0 1000 200" width="100%" height="200" preserveAspectRatio="none" role="img" aria-label="acquires, waits and timeouts per second"></svg>
  </section>
  <section>
    <h2>hot keys <span class="l" id="tracked">(<?= $h($view['tracked']) ?> of <?= $h($view['table_keys']) ?> tracked)</span></h2>
    <table id="keys">
      <thead><tr><th>key</th><th>kind</th><th>acquires</th><th>contended</th><th>waits</th><th>p50 ms</th><th>p99 ms</th><th>max ms</th><th>timeouts</th><th>lost</th></tr></thead>
      <tbody>
<?php foreach ($view['keys'] as $k): ?>
        <tr data-key="<?= $h($k['key']) ?>"><td class="key"><?= $h($k['key']) ?></td><td><?= $h($k['kind']) ?></td><td data-f="acquires"><?= $h($k['acquires']) ?></td><td data-f="contended"><?= $h($k['contended']) ?></td><td data-f="waits"><?= $h($k['waits']) ?></td><td data-f="p50_ms"><?= $ms($k['p50_ms']) ?></td><td data-f="p99_ms"><?= $ms($k['p99_ms']) ?></td><td data-f="max_ms"><?= $ms($k['max_ms']) ?></td><td data-f="timeouts"><?= $h($k['timeouts']) ?></td><td data-f="lost"><?= $h($k['lost']) ?></td></tr>
<?php endforeach; ?>
      </tbody>
    </table>
  </section>
  <section>
    <?php $r = $view['ratelimit']; ?>
    <h2>rate limits <span class="l" id="rate-totals"><?= $h($r['admitted']) ?> admitted, <?= $h($r['refused']) ?> refused, <?= $h($r['waits']) ?> waited</span></h2>
    <table id="limiters">
      <thead><tr><th>limiter</th><th>admitted</th><th>refused</th><th>waits</th><th>waited ms</th></tr></thead>
      <tbody>
<?php foreach ($r['limiters'] as $l): ?>
        <tr data-limiter="<?= $h($l['limiter']) ?>"><td class="key"><?= $h($l['limiter']) ?></td><td data-f="admitted"><?= $h($l['admitted']) ?></td><td data-f="refused"><?= $h($l['refused']) ?></td><td data-f="waits"><?= $h($l['waits']) ?></td><td data-f="wait_sum_ms"><?= $ms($l['wait_sum_ms']) ?></td></tr>
<?php endforeach; ?>
      </tbody>
    </table>
  </section>
  <section>
    <h2>servers</h2>
    <table id="servers">
      <thead><tr><th>server</th><th>commands</th><th>rtt p50 ms</th><th>rtt p99 ms</th><th>errors</th><th>reconnects</th></tr></thead>
      <tbody>
<?php foreach ($view['servers'] as $s): ?>
        <tr><td class="key"><?= $h($s['server']) ?></td><td><?= $h($s['commands']) ?></td><td><?= $ms($s['rtt_p50_ms']) ?></td><td><?= $ms($s['rtt_p99_ms']) ?></td><td><?= $h($s['errors']) ?></td><td><?= $h($s['reconnects']) ?></td></tr>
<?php endforeach; ?>
      </tbody>
    </table>
  </section>
<?php endif; ?>
</main>
<script>
(function () {
  'use strict';
  var POINTS = 120, history = [], last = null, polls = 0, fails = 0, inflight = false;
  // the numbers shown date from the last poll that answered (at first: the page's rendering)
  var lastOk = new Date();
  var hms = function (d) { return d.toLocaleTimeString('en-GB'); };
  var fmt = function (v) { return v < 10 ? v.toFixed(2) : String(Math.round(v)); };
  var esc = function (s) { return String(s).replace(/[&<>"]/g, function (c) { return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]; }); };
  var MS = {p50_ms: 1, p99_ms: 1, max_ms: 1, wait_sum_ms: 1};
  var cell = function (f, v) { return '<td data-f="' + f + '">' + (MS[f] ? fmt(v) : v) + '</td>'; };

  function render(view) {
    if (!view.enabled) { return; }
    var cards = document.querySelectorAll('#cards [data-f]');
    for (var i = 0; i < cards.length; i++) {
      var f = cards[i].getAttribute('data-f'), v = view.pool[f];
      cards[i].textContent = MS[f] ? fmt(v) : v;
      cards[i].parentNode.className = 'card' + ((f === 'lost' || f === 'timeouts') && v > 0 ? ' bad' : '');
    }
    document.getElementById('tracked').textContent = '(' + view.tracked + ' of ' + view.table_keys + ' tracked)';
    document.querySelector('#keys tbody').innerHTML = view.keys.map(function (k) {
      return '<tr data-key="' + esc(k.key) + '"><td class="key">' + esc(k.key) + '</td><td>' + esc(k.kind) + '</td>'
        + ['acquires', 'contended', 'waits', 'p50_ms', 'p99_ms', 'max_ms', 'timeouts', 'lost'].map(function (f) { return cell(f, k[f]); }).join('')
        + '</tr>';
    }).join('');
    var r = view.ratelimit;
    document.getElementById('rate-totals').textContent = r.admitted + ' admitted, ' + r.refused + ' refused, ' + r.waits + ' waited';
    document.querySelector('#limiters tbody').innerHTML = r.limiters.map(function (l) {
      return '<tr data-limiter="' + esc(l.limiter) + '"><td class="key">' + esc(l.limiter) + '</td>'
        + cell('admitted', l.admitted) + cell('refused', l.refused) + cell('waits', l.waits) + cell('wait_sum_ms', l.wait_sum_ms) + '</tr>';
    }).join('');
    document.querySelector('#servers tbody').innerHTML = view.servers.map(function (s) {
      return '<tr><td class="key">' + esc(s.server) + '</td><td>' + s.commands + '</td><td>' + fmt(s.rtt_p50_ms) + '</td><td>'
        + fmt(s.rtt_p99_ms) + '</td><td>' + s.errors + '</td><td>' + s.reconnects + '</td></tr>';
    }).join('');
  }

  // per-second rates from two readings of the counters (a reset: from zero)
  function rates(a, b) {
    var dt = Math.max(0.001, (b.time_ms - a.time_ms) / 1000), r = {};
    ['acquires', 'waits', 'timeouts', 'lost'].forEach(function (f) {
      var d = b.pool[f] - a.pool[f];
      r[f] = (d < 0 ? b.pool[f] : d) / dt;
    });
    return r;
  }

  function line(points, key, max, color) {
    var w = 1000 / (POINTS - 1), d = points.map(function (p, i) {
      return (i ? 'L' : 'M') + ((POINTS - points.length + i) * w).toFixed(1) + ' ' + (190 - p[key] / max * 175).toFixed(1);
    }).join(' ');
    return '<path d="' + d + '" fill="none" stroke="' + color + '" stroke-width="2" vector-effect="non-scaling-stroke"/>';
  }

  function draw() {
    var svg = document.getElementById('chart');
    if (!svg) { return; }
    var max = 1;
    history.forEach(function (p) { max = Math.max(max, p.acquires, p.waits, p.bad); });
    var grid = '';
    for (var g = 0; g <= 4; g++) {
      var y = 190 - g * 175 / 4;
      grid += '<line x1="0" x2="1000" y1="' + y + '" y2="' + y + '" stroke="#e4e7ec" vector-effect="non-scaling-stroke"/>'
        + '<text x="4" y="' + (y - 2) + '">' + fmt(max * g / 4) + '/s</text>';
    }
    svg.innerHTML = grid + (history.length > 1
      ? line(history, 'acquires', max, '#2563eb') + line(history, 'waits', max, '#f59e0b') + line(history, 'bad', max, '#dc2626')
      : '');
  }

  // a poll that failed (an error status, no answer, not JSON): the page says since when its
  // numbers are stale, until a poll answers again
  function failed() {
    fails++;
    var u = document.getElementById('updated');
    u.textContent = 'stale since ' + hms(lastOk) + ' (' + fails + (fails === 1 ? ' poll' : ' polls') + ' failed)';
    u.className = 'stale';
    u.setAttribute('data-fails', String(fails));
    document.body.className = 'stale';
  }

  function poll() {
    if (inflight) { return; }
    inflight = true;
    var req = new XMLHttpRequest();
    req.open('GET', 'status.php?t=' + Date.now());
    req.timeout = 5000;
    req.onerror = req.ontimeout = function () { inflight = false; failed(); };
    req.onload = function () {
      inflight = false;
      var view = null;
      try {
        view = req.status === 200 ? JSON.parse(req.responseText) : null;
      } catch (e) {
        view = null;
      }
      if (!view || typeof view !== 'object') { failed(); return; }
      render(view);
      if (view.enabled && last) {
        var r = rates(last, view);
        history.push({acquires: r.acquires, waits: r.waits, bad: r.timeouts + r.lost});
        if (history.length > POINTS) { history.shift(); }
      }
      last = view.enabled ? view : null;
      polls++;
      fails = 0;
      lastOk = new Date();
      var u = document.getElementById('updated');
      u.textContent = 'live, updated ' + hms(lastOk);
      u.className = '';
      u.setAttribute('data-polls', String(polls));
      u.setAttribute('data-fails', '0');
      document.body.className = '';
      draw();
    };
    req.send();
  }
  draw();
  poll();
  setInterval(poll, 1000);
})();
</script>
</body>
</html>
