/** The two formatters of a zone (building an Intl.DateTimeFormat costs ~0.3 ms; a prompt is built per session). */
interface ZoneFormatters {
  readonly local: Intl.DateTimeFormat;
  readonly offset: Intl.DateTimeFormat;
}

const formatters = new Map<string, ZoneFormatters>();

function formattersFor(params: { timeZone: string }): ZoneFormatters {
  const { timeZone } = params;
  let known = formatters.get(timeZone);
  if (known === undefined) {
    known = {
      local: new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
      offset: new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }),
    };
    formatters.set(timeZone, known);
  }
  return known;
}

/** The last text made, by zone: it names the minute, so every new session and model call within one minute shares it. */
const lastText = new Map<string, { minute: number; text: string }>();

/** A moment as people read it in a zone, with the zone named, e.g. "Tuesday, 1 December 2026, 10:26 (Europe/Berlin, GMT+01:00)". */
export function timeText(params: { at: number; timeZone: string }): string {
  // Every zone's offset since 1972 is whole minutes, so a UTC minute is one local minute (formatting costs ~40 µs).
  const minute = Math.floor(params.at / 60_000);
  const known = lastText.get(params.timeZone);
  if (known !== undefined && known.minute === minute) return known.text;
  const date = new Date(params.at);
  const zone = formattersFor({ timeZone: params.timeZone });
  const local = zone.local.format(date);
  const offset = zone.offset.formatToParts(date).find((part) => part.type === 'timeZoneName')?.value;
  const text = `${local} (${params.timeZone}${offset !== undefined ? `, ${offset}` : ''})`;
  lastText.set(params.timeZone, { minute, text });
  return text;
}

/** The ephemeral block `agent.current_time: call` sends after the history on each model call. */
export function currentTimeBlock(params: { now: number; timeZone: string }): string {
  return `Current time: ${timeText({ at: params.now, timeZone: params.timeZone })}`;
}
