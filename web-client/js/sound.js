// @ts-check
// Sound cues made in the browser with WebAudio (no audio files): a two-note
// chime when your turn starts, a soft tick when a card is played. Off until the
// player turns them on; the choice is kept in localStorage.

import { setSwitch, switchOn } from './store.js';

const KEY = 'parlour.sound';
/** @type {AudioContext | null} */
let audio = null;

export function soundOn() {
  return switchOn(KEY);
}

/** @param {boolean} on */
export function setSound(on) {
  setSwitch(KEY, on);
  if (on) play('turn'); // the click that turns sound on lets the browser start audio
}

/** @type {Record<string, [number, number, number][]>} */
const CUES = {
  turn: [[660, 0, 0.12], [880, 0.13, 0.16]],
  play: [[420, 0, 0.06]],
  result: [[520, 0, 0.1], [660, 0.1, 0.1], [780, 0.2, 0.18]],
};

/**
 * Play a cue ('turn', 'play', 'result') if sound is on.
 * @param {string} cue
 */
export function play(cue) {
  if (!soundOn() || !CUES[cue]) return;
  try {
    // Older Safari has only the prefixed constructor, which lib.dom does not declare.
    audio ??= new (window.AudioContext || /** @type {any} */ (window).webkitAudioContext)();
    if (audio.state === 'suspended') audio.resume();
    const start = audio.currentTime + 0.01;
    for (const [frequency, at, length] of CUES[cue]) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.18, start + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(start + at);
      oscillator.stop(start + at + length + 0.02);
    }
  } catch {
    /* no audio here: the cues are a nicety */
  }
}
