/** The reply to a /stop that stopped an answer and dropped nothing (a terminal whose answer already says "(stopped)" leaves it out). */
export const STOPPED_REPLY = 'Stopped.';
