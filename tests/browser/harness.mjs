// The browser tests' harness: the real server binary on a free loopback port
// with a temporary database, Debian's Chromium driven by playwright-core, and
// helpers that speak only the DOM contract of web-client/ (README in this folder).
//
// Environment (set by run.sh): PARLOUR_BINARY, PARLOUR_WEB_ROOT, PARLOUR_SHOTS,
// PARLOUR_SCRATCH, PARLOUR_CHROMIUM, PARLOUR_NODE_MODULES, PARLOUR_SCHEMA_MODULES.
//
// Every WebSocket frame a page receives and every /api/ body it fetches is checked
// against the wire's JSON Schema (protocol/schema, tests/schema/validator.mjs); a test
// whose page received one that does not match fails (withFixture, assertNoPageErrors)
// with the frame and ajv's errors.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import assert from 'node:assert/strict';
import { WireChecker } from '../schema/validator.mjs';

function env(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set; run the browser tests through tests/browser/run.sh`);
  return value;
}

const require = createRequire(path.join(env('PARLOUR_NODE_MODULES'), 'noop.js'));
const { chromium } = require('playwright-core');

/** One checker for the file's pages: a delta push's game is the one its table's whole push named. */
const wire = new WireChecker(env('PARLOUR_SCHEMA_MODULES'));
process.on('exit', () => {
  const c = wire.counts;
  console.log(`schema: ${c.frames} frames (${c.views} views, ${c.legal} legal entries, ${c.results} results) and ${c.http} API bodies checked`);
});

export const SHOTS = env('PARLOUR_SHOTS');
const SCRATCH = env('PARLOUR_SCRATCH');

// Every playwright wait has this default limit; a whole test has its own (node:test timeout).
export const WAIT_MS = 15_000;
export const BOT_DELAY_MS = 25;
/** The table page's root element in the DOM contract. */
export const ROOT = '[data-table][data-your-turn]';

// Every server started here is killed when the process ends, however it ends
// (playwright-core does the same for the browsers it launches).
const children = new Set();
function killChildren() {
  for (const child of children) {
    try { child.kill('SIGKILL'); } catch { /* already gone */ }
  }
}
process.on('exit', killChildren);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => { killChildren(); process.exit(1); });
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

let serverCount = 0;

/** The parlour binary; `start()` again after `kill()` reuses the port and the database. */
export class Server {
  constructor(port, db, extraArgs = []) {
    this.port = port;
    this.db = db;
    this.extraArgs = extraArgs;
    this.child = null;
    this.logPath = path.join(SCRATCH, `server-${++serverCount}.log`);
  }

  /** `extraArgs`: server flags after the usual ones (e.g. a longer --deal-pause-ms). */
  static async start(extraArgs = []) {
    const dir = fs.mkdtempSync(path.join(SCRATCH, 'db-'));
    const server = new Server(await freePort(), path.join(dir, 'parlour.db'), extraArgs);
    await server.start();
    return server;
  }

  get url() {
    return `http://127.0.0.1:${this.port}/`;
  }

  async start() {
    const log = fs.openSync(this.logPath, 'a');
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--db', this.db,
      '--allow-stacked-deck', '--web-root', env('PARLOUR_WEB_ROOT'),
      '--bot-delay-ms', String(BOT_DELAY_MS), '--log-level', 'warn', ...this.extraArgs];
    const child = spawn(env('PARLOUR_BINARY'), args, { stdio: ['ignore', log, log] });
    fs.closeSync(log);
    this.child = child;
    children.add(child);
    child.on('exit', () => children.delete(child));
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) break;
      try {
        const response = await fetch(`${this.url}healthz`);
        if (response.status === 200) return;
      } catch { /* not listening yet */ }
      await Promise.race([exited, delay(50)]);
    }
    throw new Error(`the server did not come up on port ${this.port}:\n${this.log()}`);
  }

  /** SIGKILL, as a crash would: no goodbye to the clients. */
  async kill() {
    await this.#stop('SIGKILL');
  }

  async stop() {
    await this.#stop('SIGTERM');
  }

  async #stop(signal) {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }

  log() {
    try {
      return fs.readFileSync(this.logPath, 'utf8').slice(-4000);
    } catch {
      return '(no log)';
    }
  }
}

export function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Debian's Chromium, headless, with a fresh profile per browser context. */
export async function launchBrowser() {
  const browser = await chromium.launch({
    executablePath: env('PARLOUR_CHROMIUM'),
    headless: true,
    timeout: 30_000,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
  return browser;
}

/**
 * One browser and one server for a test file, stopped at the end even when a
 * test fails. `fixture.player(name)` opens a new context (its own storage, so
 * its own identity) signed in as `name`.
 */
export async function openFixture({ serverArgs = [] } = {}) {
  const server = await Server.start(serverArgs);
  let browser;
  try {
    browser = await launchBrowser();
  } catch (error) {
    await server.stop();
    throw error;
  }
  const players = [];
  return {
    server,
    browser,
    players,
    async player(name, token, options = {}) {
      const player = await Player.open(browser, server, name, token, options);
      players.push(player);
      return player;
    },
    /**
     * A table of `game` with one browser per name: the first creates it with
     * `table` (createTable's options) and sits down from the lobby, the others
     * join through its invite link in order. Returns the players, the table id
     * and the invite link.
     */
    async seatedTable(names, table) {
      const seated = [];
      for (const name of names) seated.push(await this.player(name));
      const [host, ...guests] = seated;
      const tableId = await host.createTable({ ...table, seats: table.seats ?? names.length });
      const invite = await host.inviteLink();
      await host.joinFromLobby(tableId);
      for (const guest of guests) await guest.acceptInvite(invite, tableId);
      return { players: seated, tableId, invite };
    },
    /** Screenshots of every open page (for a failure) and the end of the server's log. */
    async diagnose(label) {
      for (const player of players) {
        await player.page.screenshot({ path: path.join(SHOTS, `FAILED-${label}-${player.name}.png`), fullPage: true })
          .catch(() => {});
      }
      console.error(`--- server log (${server.logPath}) ---\n${server.log()}`);
      for (const player of players) {
        if (player.console.length) console.error(`--- ${player.name}'s console ---\n${player.console.slice(-30).join('\n')}`);
      }
    },
    async close() {
      await browser.close().catch(() => {});
      await server.stop();
    },
  };
}

/** Runs `body(fixture)` with a fresh fixture; on failure saves screenshots and logs first. */
export async function withFixture(label, body, options = {}) {
  const fixture = await openFixture(options);
  try {
    await body(fixture);
    for (const player of fixture.players) player.assertNoPageErrors();
  } catch (error) {
    await fixture.diagnose(label);
    throw error;
  } finally {
    await fixture.close();
  }
}

/** A signed-in person: one browser context (its own localStorage) with one page. */
export class Player {
  constructor(name, context, page, server) {
    this.name = name;
    this.context = context;
    this.page = page;
    this.server = server;
    this.console = [];
    this.pageErrors = [];
    this.wireErrors = [];
    this.listen(page);
  }

  /** Closes the tab and opens a fresh one in the same browser: the name and its key stay, nothing else. */
  async reopenTab() {
    await this.page.close();
    this.page = await this.context.newPage();
    this.listen(this.page);
  }

  /** The page's console, errors, and every frame and /api/ body checked against protocol/schema. */
  listen(page) {
    page.on('console', (message) => this.console.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => this.pageErrors.push(String(error?.stack || error)));
    page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => {
      if (typeof payload === 'string') this.checkWire(() => wire.frame(JSON.parse(payload)));
    }));
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (!pathname.startsWith('/api/')) return;
      const json = (response.headers()['content-type'] || '').includes('json');
      response.text().then((text) => this.checkWire(() => wire.http(pathname, response.status(), json ? JSON.parse(text) : text)),
        () => { /* the page went away before the body came */ });
    });
  }

  checkWire(check) {
    try {
      check();
    } catch (error) {
      this.wireErrors.push(`${this.name}'s page received a frame or body that does not match protocol/schema: ${error.message}`);
    }
  }

  /** A fresh context signed in as `name`: a new name, or with `token` an existing one ("another device"). */
  // The browser's language is English unless a test says otherwise: the client
  // picks its language from it (web-client/js/i18n.js), and most tests read English.
  static async open(browser, server, name, token, { viewport = { width: 1280, height: 900 }, ignoreHTTPSErrors = false, hasTouch = false, locale = 'en-US' } = {}) {
    const context = await browser.newContext({ viewport, ignoreHTTPSErrors, hasTouch, locale });
    context.setDefaultTimeout(WAIT_MS);
    const page = await context.newPage();
    const player = new Player(name, context, page, server);
    await player.signIn(token);
    return player;
  }

  async signIn(token) {
    const { page } = this;
    await page.goto(this.server.url);
    if (token === undefined) {
      const form = page.locator('form[data-testid="signin"]');
      await form.locator('input[name="name"]').fill(this.name);
      await form.locator('input[name="name"]').press('Enter');
      this.recoveryCode = await this.keepRecoveryCode();
    } else {
      // The contract names the key box only: the name goes into the sign-in
      // form's name box and into any other text box of the key form.
      await page.locator('form[data-testid="signin"] input[name="name"]').fill(this.name);
      const form = page.locator('form[data-testid="token-signin"]');
      const nameBoxes = form.locator('input[type="text"]:not([name="token"])');
      for (let i = 0; i < await nameBoxes.count(); ++i) await nameBoxes.nth(i).fill(this.name);
      await form.locator('input[name="token"]').fill(token);
      await form.locator('input[name="token"]').press('Enter');
    }
    // Signed in: the lobby's create form shows.
    await page.locator('form[data-testid="create-table"]').waitFor();
  }

  /** A new name's recovery code page: reads the code, ticks "kept", continues. */
  async keepRecoveryCode() {
    const { page } = this;
    const code = await page.locator('[data-testid="recovery-code"]').textContent();
    await page.locator('[data-testid="recovery-kept"]').check();
    await page.locator('[data-testid="recovery-continue"]').click();
    return code.trim();
  }

  assertNoPageErrors() {
    assert.deepEqual(this.pageErrors, [], `uncaught errors in ${this.name}'s page`);
    assert.equal(this.wireErrors[0], undefined);
  }

  // -- the table page ---------------------------------------------------------

  /** The table page's root (lobby rows carry data-table too, but never data-your-turn). */
  get table() {
    return this.page.locator(ROOT);
  }

  get connection() {
    return this.page.locator('[data-zone="connection"]');
  }

  async gotoLobby() {
    await this.page.goto(`${this.server.url}#/`);
    await this.page.locator('form[data-testid="create-table"]').waitFor();
  }

  /**
   * Fills the lobby's create-table form and submits it; resolves with the new
   * table's id once the table page shows it.
   */
  async createTable({ game, seed, seats, options = {} }) {
    const form = this.page.locator('form[data-testid="create-table"]');
    await form.locator('select[name="game"]').selectOption(game);
    for (const [name, value] of Object.entries(options)) {
      const input = form.locator(`[name="${name}"]`);
      const kind = await input.evaluate((node) => `${node.tagName}:${node.type}`);
      if (kind === 'INPUT:checkbox') await input.setChecked(Boolean(value));
      else if (kind.startsWith('SELECT')) await input.selectOption(String(value));
      else await input.fill(String(value));
    }
    if (seed !== undefined) await form.locator('input[name="seed"]').fill(String(seed));
    if (seats !== undefined) await form.locator('input[name="seats"]').fill(String(seats));
    await form.locator('[type="submit"]').click();
    await this.page.waitForURL(/#\/table\/[^/]+$/);
    const id = decodeURIComponent(this.page.url().replace(/^.*#\/table\//, ''));
    await this.page.locator(`${ROOT}[data-table="${id}"][data-game="${game}"]`).waitFor();
    return id;
  }

  /** The invite URL from the host controls. */
  async inviteLink() {
    const input = this.page.locator('[data-testid="invite-link"]');
    await assertEventually(async () => /#\/invite\//.test(await input.inputValue()), 'the invite link is shown');
    return input.inputValue();
  }

  /** Opens an invite link and waits to be seated at that table. */
  async acceptInvite(link, tableId) {
    await this.page.goto(link);
    await this.page.waitForURL(new RegExp(`#/table/${tableId}$`));
    await this.seat().waitFor();
  }

  /** Takes a seat at a waiting table from the lobby's table list. */
  async joinFromLobby(tableId) {
    await this.gotoLobby();
    const row = this.page.locator(`[data-testid="table-row"][data-table="${tableId}"]`);
    await row.locator('[data-testid="join"]').click();
    await this.page.waitForURL(new RegExp(`#/table/${tableId}$`));
    await this.seat().waitFor();
  }

  /** This player's seat zone (the one that names them). */
  seat(name = this.name) {
    return this.page.locator('[data-zone="seat"]').filter({ has: this.page.getByText(name, { exact: true }) });
  }

  /** This player's seat number, read from their seat zone. */
  async seatNumber(name = this.name) {
    return Number(await this.seat(name).getAttribute('data-seat'));
  }

  /** Host: seats one bot and waits until the number of occupied seats grows. */
  async addBot() {
    const bots = this.page.locator('[data-zone="seat"][data-bot="true"]');
    const before = await bots.count();
    await this.page.locator('[data-testid="add-bot"]').click();
    await assertEventually(async () => (await bots.count()) > before, 'a bot sits down');
  }

  /** Host: ends the table at once (the second `end` does not wait for the deal) and waits until it is finished. */
  async endTable() {
    const accept = (dialog) => dialog.accept();
    this.page.on('dialog', accept);
    try {
      for (let presses = 0; presses < 2; ++presses) {
        const button = this.page.locator('[data-testid="end-table"]');
        if (await button.count() === 0) break;
        await button.click();
        await this.page.waitForTimeout(200);
      }
      await assertEventually(async () => (await this.page.locator('[data-testid="end-table"]').count()) === 0,
        'the table ends');
    } finally {
      this.page.off('dialog', accept);
    }
  }

  /** Host: starts play and waits for the table to leave the waiting phase. */
  async start() {
    await this.page.locator('[data-testid="start"]').click();
    await this.page.locator('[data-testid="start"]').waitFor({ state: 'detached' }).catch(() => {});
    await assertEventually(async () => {
      const phase = await this.table.getAttribute('data-phase');
      return phase !== null && phase !== '' && phase !== 'waiting';
    }, 'play starts');
  }

  /** Waits until the viewer's legal list is non-empty. */
  async waitForTurn(timeout = WAIT_MS) {
    await this.page.locator(`${ROOT}[data-your-turn="true"]`).waitFor({ timeout });
  }

  /** The complete actions currently offered as buttons, parsed from data-action. */
  async legalActions() {
    const buttons = this.page.locator('[data-zone="actions"] button[data-action]');
    return buttons.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-action')));
  }

  /** What the viewer may do now, as one string: whose turn, the action buttons, whether a result shows. */
  async movesKey() {
    return (await this.offers()).key;
  }

  /**
   * One reading of the page: the complete actions offered as buttons (`legal`, as
   * legalActions()), movesKey() of the same moment (`key`) and the table's seq. A
   * push may land between two separate readings, so a player that decides from
   * `legal` and then waits for `key` to change must take both from here.
   */
  async offers() {
    return this.page.evaluate(() => {
      const actions = '[data-zone="actions"]';
      const legal = [...document.querySelectorAll(`${actions} button[data-action]`)]
        .map((node) => node.getAttribute('data-action'));
      const key = JSON.stringify([
        document.querySelector('[data-table][data-your-turn]')?.getAttribute('data-your-turn'),
        [...document.querySelectorAll(`${actions} [data-action-type]`)]
          .map((node) => `${node.getAttribute('data-action-type')} ${node.getAttribute('data-action') ?? ''}`),
        document.querySelectorAll('[data-zone="result"] [data-chips-delta]').length,
      ]);
      return { legal, key, seq: document.querySelector('[data-table]')?.getAttribute('data-seq') };
    });
  }

  /**
   * Waits until movesKey() differs from `before`: the server has answered the last click.
   * With `seq` (the table's data-seq when `before` was read), a new step of the table's
   * counts too: another seat's move may leave this player's offers exactly as they were.
   */
  async waitForChange(before, what = 'the table changes after a click', seq = undefined) {
    const moved = async () => seq !== undefined && (await this.table.getAttribute('data-seq')) !== seq;
    try {
      await assertEventually(async () => (await this.movesKey()) !== before || await moved(), what);
    } catch (error) {
      // What the page showed when it stopped changing, to tell a slow server from a stuck client.
      const seen = await this.page.evaluate(() => ({
        seq: document.querySelector('[data-table]')?.getAttribute('data-seq'),
        connection: document.querySelector('[data-state]')?.getAttribute('data-state'),
        banner: document.querySelector('[role="alert"]')?.textContent,
      })).catch(() => ({}));
      error.message += `; the page still showed ${before} at seq ${seen.seq}, connection ${seen.connection}` +
        (seen.banner ? `, banner "${seen.banner}"` : '');
      throw error;
    }
  }

  /** Clicks the button of exactly this legal action. */
  async clickAction(json) {
    const buttons = this.page.locator('[data-zone="actions"] button[data-action]');
    const all = await buttons.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-action')));
    const index = all.indexOf(json);
    assert.notEqual(index, -1, `no button for ${json} among ${all.join(' ')}`);
    await buttons.nth(index).click();
  }

  /** An action with an amount range: fill the number input, press its submit button. */
  async submitAmount(type, amount) {
    const zone = this.page.locator('[data-zone="actions"]');
    await zone.locator(`input[type="number"][data-action-type="${type}"]`).fill(String(amount));
    await zone.locator(`button[data-action-type="${type}"]:not([data-action])`).click();
  }

  /** The cards of the viewer's hand, in the order drawn. */
  async handCards() {
    return this.page.locator('[data-zone="hand"] [data-card]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-card')));
  }

  /** Every card code drawn on the page outside the viewer's own hand. */
  async cardsOutsideHand() {
    return this.page.locator('[data-card]').evaluateAll((nodes) => nodes
      .filter((node) => !node.closest('[data-zone="hand"]'))
      .map((node) => node.getAttribute('data-card')));
  }

  /** The result rows' chip deltas by seat: {seat: delta}. */
  async resultDeltas() {
    const rows = this.page.locator('[data-zone="result"] [data-seat][data-chips-delta]');
    const pairs = await rows.evaluateAll((nodes) =>
      nodes.map((node) => [node.getAttribute('data-seat'), node.getAttribute('data-chips-delta')]));
    return Object.fromEntries(pairs.map(([seat, delta]) => [Number(seat), Number(delta)]));
  }

  /** Opens a player's ledger page and returns {balance, amounts}. */
  async ledger(name = this.name) {
    const target = `${this.server.url}#/ledger/${encodeURIComponent(name)}`;
    if (this.page.url() !== target) {
      // A ledger page already shown must not be mistaken for the new one.
      await this.page.evaluate(() => {
        for (const node of document.querySelectorAll('[data-testid="balance"], [data-testid="ledger-entry"]')) node.__parlourOld = true;
      });
      await this.page.goto(target);
    }
    await this.page.waitForFunction(() => {
      const fresh = (selector) => [...document.querySelectorAll(selector)].some((node) => !node.__parlourOld);
      return fresh('[data-testid="balance"]') && fresh('[data-testid="ledger-entry"]');
    }, null, { timeout: WAIT_MS });
    const balance = this.page.locator('[data-testid="balance"]');
    const value = await balance.getAttribute('data-value');
    const text = (await balance.textContent()).trim();
    const amounts = await this.page.locator('[data-testid="ledger-entry"]')
      .evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-amount'))));
    return { balance: Number(value), text, amounts };
  }

  async screenshot(file) {
    // Finite CSS animations (a card arriving on a pile) are shown at their end.
    await this.page.screenshot({ path: path.join(SHOTS, file), fullPage: true, animations: 'disabled' });
  }
}

/** Polls `check` until it returns true (robust waits for conditions no single locator expresses). */
export async function assertEventually(check, what, timeout = WAIT_MS) {
  const deadline = Date.now() + timeout;
  let lastError = null;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
      lastError = null;
    } catch (error) {
      lastError = error;
    }
    await delay(50);
  }
  throw new Error(`timed out after ${timeout} ms waiting until ${what}${lastError ? `: ${lastError.message}` : ''}`);
}

// -- what every page must be ----------------------------------------------------

/** Internal ids that must never reach the screen: table ids, meld and pile indices, bot account names. */
export const ID_ON_SCREEN = /t[0-9a-f]{8}|meld \d+|depth \d+|bot-t|bot-[0-9a-f]{16}/;

let axeSource = null;

/** axe-core's serious and critical violations on the page as it is now: "rule: target …" lines. */
/**
 * What a player reads in `selector` (the log, the action buttons, a result) is in words: no pile id
 * ("layout:3"), no raw JSON, no code word ("turn_limit", "big_cassino"), no all-caps field name ("ITEM").
 */
export async function assertInWords(page, selector, what) {
  const texts = await page.locator(selector).evaluateAll((nodes) => nodes.map((node) => node.textContent ?? ''));
  for (const text of texts) {
    assert.doesNotMatch(text, /\b(?:layout|centre|stock|hand|turned|discard|supply):\d/, `${what}: a pile id in "${text}"`);
    assert.doesNotMatch(text, /[{}[\]]/, `${what}: raw data in "${text}"`);
    assert.doesNotMatch(text, /\b[a-z]+_[a-z_]+\b/, `${what}: a code word in "${text}"`);
    assert.doesNotMatch(text, /\b(?:ITEM|SIDE|COUNTED|RESIDUE)\b/, `${what}: a field name in "${text}"`);
  }
  return texts.length;
}

export async function axeViolations(page) {
  if (axeSource === null) axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy
  // (no inline script) does not govern; a <script> tag with the source would be refused.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} (${n.failureSummary.split('\n').slice(1, 2).join('')})`) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.targets.join(' | ')}`);
}

/** No internal id in the page's text, one <h1>, and no serious or critical axe-core violation. */
export async function assertCleanPage(player, label) {
  const { page } = player;
  const text = await page.evaluate(() => document.body.innerText);
  const found = ID_ON_SCREEN.exec(text);
  assert.equal(found, null, `${label}: an internal id on screen: "${found?.[0]}" in "${found ? text.slice(Math.max(0, found.index - 60), found.index + 40) : ''}"`);
  assert.ok(await page.locator('h1').count() >= 1, `${label}: the page has an <h1>`);
  assert.deepEqual(await axeViolations(page), [], `${label}: axe-core finds no serious or critical violation`);
}

/** The parts of `selectors` that are not wholly inside the viewport (each must match something visible). */
export async function outsideViewport(page, selectors) {
  return page.evaluate((list) => {
    const out = [];
    for (const selector of list) {
      const nodes = [...document.querySelectorAll(selector)].filter((n) => n.getClientRects().length);
      if (!nodes.length) { out.push(`${selector}: not drawn`); continue; }
      const rect = nodes[0].getBoundingClientRect();
      if (rect.top < 0 || rect.left < 0 || rect.bottom > window.innerHeight + 1 || rect.right > window.innerWidth + 1) {
        out.push(`${selector}: ${Math.round(rect.left)},${Math.round(rect.top)}–${Math.round(rect.right)},${Math.round(rect.bottom)} in ${window.innerWidth}×${window.innerHeight}`);
      }
    }
    return out;
  }, selectors);
}

export const LAPTOP = { width: 1366, height: 800 };
export const PHONE = { width: 390, height: 844 };
