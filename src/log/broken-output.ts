/** Streams already given an error listener (each gets one, however many loggers use it). */
const guarded = new WeakSet<NodeJS.WritableStream>();

/**
 * Keeps an output stream whose reader went away (stderr to a journal that restarted, `gateway run 2>&1 | head`
 * that ended: EPIPE) from ending the process: without an 'error' listener node throws the error as uncaught.
 * Lines written to it afterwards are lost; the log file (when it takes writes) still has them.
 */
export function tolerateBrokenOutput(params: { stream: NodeJS.WritableStream }): void {
  const { stream } = params;
  if (guarded.has(stream)) return;
  guarded.add(stream);
  stream.on('error', () => {
    // Nowhere left to say it: this stream was that place.
  });
}
