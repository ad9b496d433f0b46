/** A moment as people read it in a zone, with the zone named, e.g. "Tuesday, 1 December 2026, 10:26 (Europe/Berlin, GMT+01:00)". */
export function timeText(params: { at: number; timeZone: string }): string {
  const date = new Date(params.at);
  const local = new Intl.DateTimeFormat('en-GB', {
    timeZone: params.timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);
  const offset = new Intl.DateTimeFormat('en-US', { timeZone: params.timeZone, timeZoneName: 'longOffset' })
    .formatToParts(date)
    .find((part) => part.type === 'timeZoneName')?.value;
  return `${local} (${params.timeZone}${offset !== undefined ? `, ${offset}` : ''})`;
}

/** The ephemeral block `agent.current_time: call` sends after the history on each model call. */
export function currentTimeBlock(params: { now: number; timeZone: string }): string {
  return `Current time: ${timeText({ at: params.now, timeZone: params.timeZone })}`;
}
