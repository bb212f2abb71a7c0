// @ts-check
// A browser notification when your turn starts while the tab is in the
// background (lichess and Board Game Arena do the same). Off until the player
// turns it on, which asks the browser's permission; the choice is kept in
// localStorage. A notification per table replaces the last one (its tag), and a
// click on it brings the tab forward.

import { setSwitch, switchOn } from './store.js';
import { t } from './i18n.js';

const KEY = 'parlour.notify';

/** @returns {boolean} the browser can show notifications at all */
export function notificationsSupported() {
  return typeof window !== 'undefined' && 'Notification' in window;
}

/** @returns {boolean} the player turned notifications on and the browser allows them */
export function notifyOn() {
  return notificationsSupported() && Notification.permission === 'granted' && switchOn(KEY);
}

/** @returns {string} why notifications are off when the player wants them, or '' */
export function notifyBlocked() {
  if (!notificationsSupported()) return t('This browser cannot show notifications.');
  if (Notification.permission === 'denied') return t('Notifications are blocked for this site in the browser\'s settings.');
  return '';
}

/**
 * Turns notifications on (asking the browser's permission first) or off.
 * @param {boolean} on
 * @returns {Promise<boolean>} whether they are on now
 */
export async function setNotify(on) {
  setSwitch(KEY, on);
  if (!on || !notificationsSupported()) return false;
  if (Notification.permission === 'default') {
    try {
      await Notification.requestPermission();
    } catch {
      /* an old browser's callback form; its answer is read below */
    }
  }
  return notifyOn();
}

/**
 * "Your turn" while the tab is hidden: nothing when it is in view (the banner,
 * the title and the chime say it there) or when notifications are off.
 * @param {string} title e.g. "Your turn at the Willow Alcove"
 * @param {string} body e.g. "Red Dog: bet or fold"
 * @param {string} tag one per table, so a new turn replaces the old notice
 */
export function notifyTurn(title, body, tag) {
  if (!notifyOn() || !document.hidden) return;
  try {
    const notice = new Notification(title, { body, tag });
    notice.onclick = () => {
      window.focus();
      notice.close();
    };
  } catch {
    /* a browser that only notifies from a service worker: the chime and the title still tell */
  }
}
