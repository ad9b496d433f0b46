import type { Store, VoiceMode } from '../../store/types.js';

/** What each mode does, for the reply. */
const described: Readonly<Record<VoiceMode, string>> = {
  off: 'off: text replies only',
  on: 'on: a voice note is answered with a voice note too (and the text)',
  tts: 'tts: every reply is also sent as a voice note (and the text)',
};

/**
 * `/voice [off|on|tts]`: whether this chat's replies are also spoken, kept across restarts (bare: on ⇄ off). Says so
 * when it cannot happen here: no text-to-speech set up, or a platform that never gets voice (SMS).
 */
export function voiceReply(params: { args: string; store: Store; sessionKey: string; speaks: boolean; configured: boolean }): string {
  const { store, sessionKey } = params;
  if (!params.speaks) return 'Replies here are never spoken: this platform gets text only.';
  const current = store.chatVoiceMode({ key: sessionKey }) ?? 'off';
  const word = params.args.trim().toLowerCase();
  const next: VoiceMode | undefined = word === '' ? (current === 'off' ? 'on' : 'off') : word === 'off' || word === 'on' || word === 'tts' ? word : undefined;
  if (next === undefined) return `/voice takes off, on or tts (bare: switch on ⇄ off). Now: ${described[current]}.`;
  store.setChatVoiceMode({ key: sessionKey, mode: next });
  const missing = next !== 'off' && !params.configured ? ' Text-to-speech is not set up yet, so replies stay text until tts.provider is set in config.yaml.' : '';
  return `Voice replies for this chat: ${described[next]}.${missing}`;
}
