// The server's own TLS (--tls-cert, --tls-key) in a browser: the page over
// https with HSTS, its WebSocket over wss, a plain http address sent on to
// https, and two players at a table through an https invite link. The
// certificate is a self-signed one made here with Debian's openssl.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Player, Server, launchBrowser } from './harness.mjs';

function selfSignedCertificate() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tls-'));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert,
      '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(`openssl could not make a test certificate (scripts/install-deps.sh --test installs it): ${error}`);
  }
  return { cert, key };
}

test('tls: the page over https with HSTS, the WebSocket over wss, http sent to https, a table through an https invite', { timeout: 90_000 }, async () => {
  const { cert, key } = selfSignedCertificate();
  const server = await Server.start(['--tls-cert', cert, '--tls-key', key]);
  const https = `https://127.0.0.1:${server.port}/`;
  // The players open the https address; the harness's own checks use /healthz, answered on plain http too.
  const secure = Object.create(server, { url: { value: https } });
  let browser;
  const players = [];
  try {
    browser = await launchBrowser();
    const open = async (name) => {
      const player = await Player.open(browser, secure, name, undefined, { ignoreHTTPSErrors: true });
      players.push(player);
      return player;
    };
    const ann = await open('ann');
    const page = await ann.page.goto(https);
    assert.equal(page.status(), 200);
    assert.match(page.headers()['strict-transport-security'] ?? '', /max-age=\d+/, 'HSTS over TLS');
    assert.match(page.headers()['content-security-policy'] ?? '', /default-src 'self'/);

    // The client's WebSocket goes over wss on the same port.
    const socket = new Promise((resolve) => ann.page.once('websocket', (ws) => resolve(ws.url())));
    await ann.page.reload();
    await ann.page.locator('form[data-testid="create-table"]').waitFor();
    assert.match(await socket, new RegExp(`^wss://127\\.0\\.0\\.1:${server.port}/ws`));

    // A plain http address on the TLS port ends on https.
    await ann.page.goto(`http://127.0.0.1:${server.port}/`);
    assert.ok(ann.page.url().startsWith(https), `http went on to ${ann.page.url()}`);
    await ann.page.locator('form[data-testid="create-table"]').waitFor();

    // A table through an https invite link.
    const tableId = await ann.createTable({ game: 'red_dog', seats: 2 });
    const invite = await ann.inviteLink();
    assert.ok(invite.startsWith(https), `the invite link ${invite} is an https one`);
    await ann.joinFromLobby(tableId);
    const bob = await open('bob');
    await bob.acceptInvite(invite, tableId);
    for (const player of players) player.assertNoPageErrors();
  } catch (error) {
    console.error(`--- server log (${server.logPath}) ---\n${server.log()}`);
    throw error;
  } finally {
    if (browser) await browser.close();
    await server.stop();
  }
});
