// @ts-check
// The sign-in form: pick a name; the server answers with a secret token that
// this browser keeps (see store.js), so the name stays yours next time.

import { el } from './dom.js';
import { errorCode, errorMessage } from './banner.js';
import { t } from './i18n.js';

/**
 * What the sign-in page is given: a message and the ways to sign in, each a
 * promise that rejects with {code, message}.
 * @typedef {object} SignInOptions
 * @property {string} [message] a problem, shown above the form
 * @property {string} [note] a hint
 * @property {string} [name] the name to prefill
 * @property {(name: string) => Promise<unknown>} onSubmit
 * @property {(name: string, token: string) => Promise<unknown>} onTokenSubmit
 * @property {(name: string, code: string) => Promise<unknown>} [onRecoverSubmit]
 * @property {string} [deviceCode]
 * @property {(code: string, label?: string) => Promise<unknown>} [onDeviceSubmit]
 * @property {(name: string, passphrase: string) => Promise<unknown>} [onPassphraseSubmit]
 */

const NAME_PATTERN = '[A-Za-z0-9_\\-]{1,24}';
// The shapes of a recovery code and a device code, shown in their empty boxes (no words to translate).
const RECOVERY_CODE_SHAPE = 'XXXX-XXXX-XXXX-XXXX-XXXX';
const DEVICE_CODE_SHAPE = 'XXXX-XXXX-XXXX-XXXX';

/**
 * options: {message?: string (a problem, shown above the form), note?: string (a hint),
 *           name?: string (prefill),
 *           onSubmit(name) → Promise (rejects with {code, message})}
 * @param {SignInOptions} options
 */
export function createSignInPage(options) {
  const messageBox = el('p', { class: options.message ? 'form-message form-message-error' : 'form-message', text: options.message || '' });
  const input = el('input', {
    type: 'text', name: 'name', required: true, maxlength: 24, pattern: NAME_PATTERN,
    autocomplete: 'username', autocapitalize: 'off', spellcheck: 'false',
    placeholder: t('e.g. alice'), value: options.name || '',
    title: t('1–24 letters, digits, "_" or "-"'),
  });
  const button = el('button', { type: 'submit', class: 'btn btn-primary', text: t('Sit down') });
  const form = el('form', {
    class: 'signin-form', 'data-testid': 'signin',
    onsubmit: async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!form.reportValidity()) return;
      button.disabled = true;
      messageBox.className = 'form-message';
      messageBox.textContent = t('Signing in…');
      try {
        await options.onSubmit(name);
      } catch (error) {
        messageBox.className = 'form-message form-message-error';
        messageBox.textContent = describeHelloError(name, error);
        input.focus();
        input.select();
      } finally {
        button.disabled = false;
      }
    },
  },
  el('label', { class: 'field-label' }, t('Your name'), input),
  el('p', { class: 'hint', text: t('Letters, digits, "_" and "-", up to 24 characters. A new name starts with a stack of chips.') }),
  button);

  // Another device: the name plus the secret key shown on the ledger page of the first one.
  const tokenMessage = el('p', { class: 'form-message' });
  // Not called "name": the page then has one input[name="name"], the main form's.
  const tokenName = el('input', {
    type: 'text', name: 'account', required: true, maxlength: 24, pattern: NAME_PATTERN,
    autocomplete: 'username', autocapitalize: 'off', spellcheck: 'false', placeholder: t('your name'),
  });
  const tokenInput = el('input', {
    type: 'password', name: 'token', required: true, autocomplete: 'current-password', spellcheck: 'false',
    placeholder: t('secret key'),
  });
  const tokenButton = el('button', { type: 'submit', class: 'btn', text: t('Sign in with key') });
  const tokenForm = el('form', {
    class: 'signin-form token-form', 'data-testid': 'token-signin',
    onsubmit: async (event) => {
      event.preventDefault();
      let name = tokenName.value.trim();
      let token = tokenInput.value.trim();
      // "name:key" pasted into the key box works too.
      const pasted = /^([A-Za-z0-9_-]{1,24}):(\S+)$/.exec(token);
      if (pasted && !name) [name, token] = [pasted[1], pasted[2]];
      if (!name) name = input.value.trim();
      if (!name || !token) {
        tokenMessage.className = 'form-message form-message-error';
        tokenMessage.textContent = t('Enter your name and the secret key from your other device.');
        return;
      }
      tokenButton.disabled = true;
      tokenMessage.className = 'form-message';
      tokenMessage.textContent = t('Signing in…');
      try {
        await options.onTokenSubmit(name, token);
      } catch (error) {
        tokenMessage.className = 'form-message form-message-error';
        tokenMessage.textContent = errorCode(error) === 'unauthorized'
          ? t('That key does not belong to "{name}". Copy it again from your ledger page on the other device.', { name })
          : describeHelloError(name, error);
      } finally {
        tokenButton.disabled = false;
      }
    },
  },
  el('label', { class: 'field-label' }, t('Name'), tokenName),
  el('label', { class: 'field-label' }, t('Secret key'), tokenInput),
  tokenMessage,
  tokenButton);
  tokenName.required = false; // may come from the main form or a pasted "name:key"

  // A lost key: the name and its recovery code give a new one (and sign out the old).
  const recoverMessage = el('p', { class: 'form-message' });
  const recoverName = el('input', {
    type: 'text', name: 'recover-name', required: true, maxlength: 24, pattern: NAME_PATTERN,
    autocomplete: 'username', autocapitalize: 'off', spellcheck: 'false', placeholder: t('your name'),
  });
  const recoverCode = el('input', {
    type: 'text', name: 'recovery-code', required: true, maxlength: 64, autocomplete: 'off', autocapitalize: 'characters',
    spellcheck: 'false', placeholder: RECOVERY_CODE_SHAPE,
  });
  const recoverButton = el('button', { type: 'submit', class: 'btn', text: t('Recover my name') });
  const recoverForm = el('form', {
    class: 'signin-form recover-form', 'data-testid': 'recover',
    onsubmit: async (event) => {
      event.preventDefault();
      if (!recoverForm.reportValidity()) return;
      const name = recoverName.value.trim();
      recoverButton.disabled = true;
      recoverMessage.className = 'form-message';
      recoverMessage.textContent = t('Checking…');
      try {
        await options.onRecoverSubmit?.(name, recoverCode.value.trim());
      } catch (error) {
        recoverMessage.className = 'form-message form-message-error';
        recoverMessage.textContent = errorCode(error) === 'unauthorized'
          ? t('That recovery code does not go with "{name}". Check it, letter by letter.', { name })
          : describeHelloError(name, error);
      } finally {
        recoverButton.disabled = false;
      }
    },
  },
  el('label', { class: 'field-label' }, t('Name'), recoverName),
  el('label', { class: 'field-label' }, t('Recovery code'), recoverCode),
  recoverMessage,
  recoverButton);

  // A code made on a signed-in device: this browser becomes another device of that name.
  const deviceMessage = el('p', { class: 'form-message' });
  const deviceCode = el('input', {
    type: 'text', name: 'device-code', required: true, maxlength: 64, autocomplete: 'off', autocapitalize: 'characters',
    spellcheck: 'false', placeholder: DEVICE_CODE_SHAPE, value: options.deviceCode || '',
  });
  const deviceLabel = el('input', {
    type: 'text', name: 'device-label', maxlength: 40, autocomplete: 'off', placeholder: t('e.g. phone'),
  });
  const deviceButton = el('button', { type: 'submit', class: 'btn', text: t('Sign in with the code') });
  const deviceForm = el('form', {
    class: 'signin-form device-form', 'data-testid': 'device-signin',
    onsubmit: async (event) => {
      event.preventDefault();
      if (!deviceForm.reportValidity()) return;
      deviceButton.disabled = true;
      deviceMessage.className = 'form-message';
      deviceMessage.textContent = t('Signing in…');
      try {
        await options.onDeviceSubmit?.(deviceCode.value.trim(), deviceLabel.value.trim());
      } catch (error) {
        deviceMessage.className = 'form-message form-message-error';
        deviceMessage.textContent = errorCode(error) === 'unauthorized'
          ? t('That code is unknown, used or expired. Make a new one on your signed-in device (ledger page, "Your devices").')
          : describeHelloError('', error);
      } finally {
        deviceButton.disabled = false;
      }
    },
  },
  el('label', { class: 'field-label' }, t('Device code'), deviceCode),
  el('label', { class: 'field-label' }, t('Name this device (optional)'), deviceLabel),
  deviceMessage,
  deviceButton);

  // An optional passphrase, set on a signed-in device's ledger page.
  const passMessage = el('p', { class: 'form-message' });
  const passName = el('input', {
    type: 'text', name: 'passphrase-name', required: true, maxlength: 24, pattern: NAME_PATTERN,
    autocomplete: 'username', autocapitalize: 'off', spellcheck: 'false', placeholder: t('your name'),
  });
  const passInput = el('input', {
    type: 'password', name: 'passphrase', required: true, minlength: 8, maxlength: 128, autocomplete: 'current-password',
  });
  const passButton = el('button', { type: 'submit', class: 'btn', text: t('Sign in with the passphrase') });
  const passForm = el('form', {
    class: 'signin-form passphrase-form', 'data-testid': 'passphrase-signin',
    onsubmit: async (event) => {
      event.preventDefault();
      if (!passForm.reportValidity()) return;
      const name = passName.value.trim();
      passButton.disabled = true;
      passMessage.className = 'form-message';
      passMessage.textContent = t('Checking…');
      try {
        await options.onPassphraseSubmit?.(name, passInput.value);
      } catch (error) {
        passMessage.className = 'form-message form-message-error';
        passMessage.textContent = errorCode(error) === 'unauthorized'
          ? t('That passphrase does not go with "{name}" (or the name has none).', { name })
          : describeHelloError(name, error);
      } finally {
        passButton.disabled = false;
      }
    },
  },
  el('label', { class: 'field-label' }, t('Name'), passName),
  el('label', { class: 'field-label' }, t('Passphrase'), passInput),
  passMessage,
  passButton);

  const element = el('section', { class: 'signin panel' },
    el('h1', { class: 'signin-title', text: t('Welcome to the Parlour') }),
    el('p', { class: 'muted', text: t('Pick a name to take a seat at a card table.') }),
    options.note ? el('p', { class: 'signin-note', text: options.note }) : null,
    messageBox,
    form,
    el('div', { class: 'token-signin' },
      el('h2', { class: 'token-title', text: t('Already have a name on another device?') }),
      el('p', { class: 'hint', text: t('Your ledger page there shows your secret key. Enter it here to use the same name and chips.') }),
      tokenForm),
    options.onDeviceSubmit ? el('details', { class: 'token-signin device-signin', open: Boolean(options.deviceCode) },
      el('summary', { class: 'token-title', text: t('Have a code from your other device?') }),
      el('p', { class: 'hint', text: t('On a device where you are signed in, open your ledger page and choose "Link another device". The code works once, for a few minutes.') }),
      deviceForm) : null,
    options.onPassphraseSubmit ? el('details', { class: 'token-signin passphrase-signin' },
      el('summary', { class: 'token-title', text: t('Sign in with a passphrase') }),
      el('p', { class: 'hint', text: t('If you set a passphrase on your ledger page, it signs this browser in as another of your devices.') }),
      passForm) : null,
    options.onRecoverSubmit ? el('details', { class: 'token-signin recover-signin' },
      el('summary', { class: 'token-title', text: t('Lost your key?') }),
      el('p', { class: 'hint', text: t('Enter your name and the recovery code you were shown when you first took it. You get a new key; the old one stops working everywhere.') }),
      recoverForm) : null);

  return {
    element,
    title: t('Sign in'),
    start() {
      input.focus();
    },
  };
}

/**
 * @param {string} name
 * @param {unknown} error what the sign-in was refused with
 * @returns {string}
 */
export function describeHelloError(name, error) {
  switch (errorCode(error)) {
    case 'unauthorized':
    case 'name_taken':
      return t('The name "{name}" already belongs to someone else. Please choose another name.', { name });
    case 'invite_required':
      // The server's own words, if any, follow in brackets (as they come).
      return `${t('This Parlour takes new names by invitation only: open the invite or sign-up link your host sent you.')} ` +
        (errorMessage(error) ? `(${errorMessage(error)})` : '');
    case 'registration_closed':
      return t('This Parlour takes no new names. If you have a name here, use your key or your recovery code below.');
    case 'rate_limited':
      return t('Too many tries: {reason}.', { reason: errorMessage(error) || t('wait a little and try again') });
    case 'bad_request':
      return t('"{name}" is not a valid name: {reason}.', { name, reason: errorMessage(error) || t('use 1–24 letters, digits, "_" or "-"') });
    case 'offline':
    case 'disconnected':
    case 'timeout':
      return t('Not connected to the server yet — try again in a moment.');
    default:
      return t('{code}: {message}', { code: errorCode(error) || t('error'), message: errorMessage(error) || t('could not sign in') });
  }
}

/**
 * Shown once, right after a name is taken (or recovered): its recovery code.
 * options: {name, code, onKept()}
 * @param {{name: string, code: string, onKept: () => void}} options
 */
export function createRecoveryCodePage(options) {
  const code = el('code', { class: 'token recovery-code', 'data-testid': 'recovery-code', text: options.code });
  const kept = el('input', { type: 'checkbox', name: 'kept', 'data-testid': 'recovery-kept' });
  const next = el('button', { type: 'button', class: 'btn btn-primary', 'data-testid': 'recovery-continue', text: t('Continue'), disabled: true,
    onclick: () => options.onKept() });
  kept.addEventListener('change', () => { next.disabled = !kept.checked; });
  const copy = el('button', {
    type: 'button', class: 'btn btn-small', text: t('Copy'),
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(options.code);
        copy.textContent = t('Copied');
      } catch {
        copy.textContent = t('Select it and copy');
      }
    },
  });
  return {
    element: el('section', { class: 'signin panel recovery-panel' },
      el('h1', { class: 'signin-title', text: t('Keep this recovery code for "{name}"', { name: options.name }) }),
      el('p', { text: t('If this browser forgets your key (cleared data, a new phone), this code gets your name and chips back. It is shown only now: write it down or keep it in a password manager. Each code works once; using it gives you a new one.') }),
      el('div', { class: 'token-row' }, code, copy),
      el('label', { class: 'field-label' }, kept, ` ${t('I have kept my recovery code')}`),
      next),
    title: t('Your recovery code'),
    start() { copy.focus(); },
  };
}
