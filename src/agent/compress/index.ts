// Compression of a long conversation (issue 12): pure apart from the summariser the caller passes in.
export { compressHistory, defaultSummaryMaxTokens, defaultTailRatio, minSummaryTokens } from './compress.js';
export { clearedToolOutput, clearOldToolResults } from './clear-tool-results.js';
export { headEnd, isSafeCut, tailStart } from './boundaries.js';
export { defaultTranscriptMaxChars, renderTranscript, summaryRequest, summarySystemPrompt, transcriptMessageMaxChars } from './prompt.js';
export { fallbackNote, isSummaryMessage, summaryFraming, summaryHeader, summaryMessage, summaryText } from './summary-message.js';
export { textMeasure, trimToTokens, trimmedMarker } from './trim.js';
export { toolPairingProblems } from './validate.js';
export type { CompressOutcome, CompressParams, CompressResult, CompressStats, CountTokens, Summarise } from './types.js';
