// /metrics read by an independent parser of the Prometheus text format: the npm
// package parse-prometheus-text-format (pinned in package-lock.json), as a
// scraper other than our own would read it. Two browsers play a Red Dog deal (a bet each),
// then every family must parse, carry its HELP and TYPE, and say what happened.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT, withFixture } from './harness.mjs';

const require = createRequire(path.join(process.env.PARLOUR_NODE_MODULES, 'noop.js'));
const parsePrometheusTextFormat = require('parse-prometheus-text-format');

function family(families, name) {
  const found = families.find((f) => f.name === name);
  assert.ok(found, `/metrics has the family ${name}`);
  return found;
}

test('/metrics: an independent text-format parser reads every family, with HELP, TYPE and the deal just played', { timeout: 90_000 }, async () => {
  await withFixture('metrics', async (fixture) => {
    const { players: [alice, bob] } = await fixture.seatedTable(['alice', 'bob'], { game: 'red_dog', seed: 20261127 });
    await alice.start();
    // Each bets once: whoever's turn it is first (the seed picks the first
    // dealer), then the other; the deal is over after the second bet.
    const yourTurn = (player) => player.page.locator(`${ROOT}[data-your-turn="true"]`);
    const first = await Promise.any([alice, bob].map((p) => yourTurn(p).waitFor().then(() => p)));
    await first.submitAmount('bet', 1);
    const second = first === alice ? bob : alice;
    await second.waitForTurn();
    await second.submitAmount('bet', 1);
    await alice.page.locator('[data-zone="result"] [data-seat="1"][data-chips-delta]').waitFor();

    const response = await fetch(`${fixture.server.url}metrics`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const families = parsePrometheusTextFormat(text);  // throws on what it cannot read

    // Every family the page names, with help and a type the format knows.
    const named = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
    assert.equal(families.length, named.size, 'every # TYPE line is a family the parser read');
    for (const f of families) {
      assert.ok(f.help && f.help.length > 0, `${f.name} has a HELP line`);
      assert.ok(['COUNTER', 'GAUGE', 'HISTOGRAM', 'SUMMARY', 'UNTYPED'].includes(f.type), `${f.name}: type ${f.type}`);
    }

    // Both bets (and alice's start) were acts committed at a Red Dog table.
    const actions = family(families, 'parlour_actions_total');
    assert.equal(actions.type, 'COUNTER');
    const redDog = actions.metrics.find((m) => m.labels.game === 'red_dog');
    assert.ok(redDog && Number(redDog.value) >= 2, `acts at red_dog counted: ${JSON.stringify(actions.metrics)}`);

    // The act latency histogram: buckets rise to +Inf, which equals the count.
    const acts = family(families, 'parlour_act_seconds');
    assert.equal(acts.type, 'HISTOGRAM');
    const [histogram] = acts.metrics;
    const bound = (le) => (le === '+Inf' ? Infinity : Number(le));
    const bounds = Object.keys(histogram.buckets).sort((a, b) => bound(a) - bound(b));
    assert.equal(bounds.at(-1), '+Inf', 'a +Inf bucket');
    const counts = bounds.map((b) => Number(histogram.buckets[b]));
    for (let i = 1; i < counts.length; ++i) assert.ok(counts[i] >= counts[i - 1], 'buckets are cumulative');
    assert.equal(Number(histogram.buckets['+Inf']), Number(histogram.count), '+Inf = count');
    assert.ok(Number(histogram.count) >= 2, 'the bets were timed');

    // One table, playing or finished with its deal; two players connected.
    const states = family(families, 'parlour_tables_by_state').metrics;
    const tables = states.reduce((sum, m) => sum + Number(m.value), 0);
    assert.equal(tables, 1, `one table: ${JSON.stringify(states)}`);
    assert.equal(Number(family(families, 'parlour_players_connected').metrics[0].value), 2);
    assert.equal(Number(family(families, 'parlour_build_info').metrics[0].value), 1);
  });
});
