// Small synthesised sounds (WebAudio), so the binary ships no audio files.
// The context is created (or resumed) on the first press on the page, as browsers require;
// a running context also plays in a background tab, which is what the online game's "your
// friend joined" and "your turn" sounds need.

let context = null;
let enabled = true;

export function setSoundEnabled(on) {
  enabled = on;
}

function audio() {
  if (!enabled) return null;
  if (!context) {
    const AudioContextClass = window.AudioContext || window.webkitAudioContext;
    if (!AudioContextClass) return null;
    context = new AudioContextClass();
  }
  if (context.state === 'suspended') context.resume().catch(() => {});
  return context;
}

// Called on the first press or key: from then on sounds play without one, even in the
// background.
export function unlockSound() {
  audio();
}

function tone(frequency, startOffset, duration, type = 'sine', volume = 0.15) {
  const ctx = audio();
  if (!ctx) return;
  const start = ctx.currentTime + startOffset;
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  oscillator.type = type;
  oscillator.frequency.setValueAtTime(frequency, start);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + duration);
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start(start);
  oscillator.stop(start + duration + 0.02);
}

function clicks(count, spacing) {
  for (let index = 0; index < count; index += 1) {
    tone(500 + Math.random() * 900, index * spacing, 0.04, 'square', 0.05);
  }
}

export const sounds = {
  dice: () => clicks(6, 0.05),
  move: () => tone(330, 0, 0.09, 'triangle', 0.12),
  rosette: () => {
    tone(660, 0, 0.15);
    tone(880, 0.1, 0.2);
  },
  capture: () => {
    tone(160, 0, 0.2, 'sawtooth', 0.1);
    tone(110, 0.08, 0.25, 'sine', 0.15);
  },
  home: () => tone(523, 0, 0.18, 'triangle', 0.12),
  pass: () => tone(220, 0, 0.15, 'sine', 0.08),
  win: () => [523, 659, 784, 1046].forEach((f, i) => tone(f, i * 0.12, 0.25, 'triangle', 0.12)),
  // Online: the friend joined (rising), it is your turn (two soft knocks).
  join: () => [440, 554, 659].forEach((f, i) => tone(f, i * 0.1, 0.2, 'triangle', 0.12)),
  turn: () => {
    tone(587, 0, 0.12, 'sine', 0.14);
    tone(784, 0.14, 0.18, 'sine', 0.14);
  },
  lose: () => [392, 330, 262].forEach((f, i) => tone(f, i * 0.15, 0.3, 'sine', 0.1)),
};
