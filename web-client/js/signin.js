// The sign-in form: pick a name; the server answers with a secret token that
// this browser keeps (see store.js), so the name stays yours next time.

import { el } from './dom.js';

const NAME_PATTERN = '[A-Za-z0-9_\\-]{1,24}';

/**
 * options: {message?: string (a problem, shown above the form), note?: string (a hint),
 *           name?: string (prefill),
 *           onSubmit(name) → Promise (rejects with {code, message})}
 */
export function createSignInPage(options) {
  const messageBox = el('p', { class: options.message ? 'form-message form-message-error' : 'form-message', text: options.message || '' });
  const input = el('input', {
    type: 'text', name: 'name', required: true, maxlength: 24, pattern: NAME_PATTERN,
    autocomplete: 'username', autocapitalize: 'off', spellcheck: 'false',
    placeholder: 'e.g. alice', value: options.name || '',
    title: '1–24 letters, digits, "_" or "-"',
  });
  const button = el('button', { type: 'submit', class: 'btn btn-primary', text: 'Sit down' });
  const form = el('form', {
    class: 'signin-form', 'data-testid': 'signin',
    onsubmit: async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!form.reportValidity()) return;
      button.disabled = true;
      messageBox.className = 'form-message';
      messageBox.textContent = 'Signing in…';
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
  el('label', { class: 'field-label' }, 'Your name', input),
  el('p', { class: 'hint', text: 'Letters, digits, "_" and "-", up to 24 characters. A new name starts with a stack of chips.' }),
  button);

  // Another device: the name plus the secret key shown on the ledger page of the first one.
  const tokenMessage = el('p', { class: 'form-message' });
  // Not called "name": the page then has one input[name="name"], the main form's.
  const tokenName = el('input', {
    type: 'text', name: 'account', required: true, maxlength: 24, pattern: NAME_PATTERN,
    autocomplete: 'username', autocapitalize: 'off', spellcheck: 'false', placeholder: 'your name',
  });
  const tokenInput = el('input', {
    type: 'password', name: 'token', required: true, autocomplete: 'current-password', spellcheck: 'false',
    placeholder: 'secret key',
  });
  const tokenButton = el('button', { type: 'submit', class: 'btn', text: 'Sign in with key' });
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
        tokenMessage.textContent = 'Enter your name and the secret key from your other device.';
        return;
      }
      tokenButton.disabled = true;
      tokenMessage.className = 'form-message';
      tokenMessage.textContent = 'Signing in…';
      try {
        await options.onTokenSubmit(name, token);
      } catch (error) {
        tokenMessage.className = 'form-message form-message-error';
        tokenMessage.textContent = error?.code === 'unauthorized'
          ? `That key does not belong to "${name}". Copy it again from your ledger page on the other device.`
          : describeHelloError(name, error);
      } finally {
        tokenButton.disabled = false;
      }
    },
  },
  el('label', { class: 'field-label' }, 'Name', tokenName),
  el('label', { class: 'field-label' }, 'Secret key', tokenInput),
  tokenMessage,
  tokenButton);
  tokenName.required = false; // may come from the main form or a pasted "name:key"

  const element = el('section', { class: 'signin panel' },
    el('h1', { class: 'signin-title', text: 'Welcome to the Parlour' }),
    el('p', { class: 'muted', text: 'Pick a name to take a seat at a card table.' }),
    options.note ? el('p', { class: 'signin-note', text: options.note }) : null,
    messageBox,
    form,
    el('div', { class: 'token-signin' },
      el('h2', { class: 'token-title', text: 'Already have a name on another device?' }),
      el('p', { class: 'hint', text: 'Your ledger page there shows your secret key. Enter it here to use the same name and chips.' }),
      tokenForm));

  return {
    element,
    title: 'Sign in',
    start() {
      input.focus();
    },
  };
}

export function describeHelloError(name, error) {
  switch (error?.code) {
    case 'unauthorized':
    case 'name_taken':
      return `The name "${name}" already belongs to someone else. Please choose another name.`;
    case 'bad_request':
      return `"${name}" is not a valid name: ${error.message || 'use 1–24 letters, digits, "_" or "-"'}.`;
    case 'offline':
    case 'disconnected':
    case 'timeout':
      return 'Not connected to the server yet — try again in a moment.';
    default:
      return `${error?.code || 'error'}: ${error?.message || 'could not sign in'}`;
  }
}
