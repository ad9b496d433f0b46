/** Logging with secret redaction. */
export { Redactor, REDACTED } from './redact.js';
export { createLogger, closeLogger, type LoggerHandle } from './logger.js';
export { RotatingFileStream } from './rotating-file.js';
export { censorSecretKeys, isSecretKey } from './secret-keys.js';
