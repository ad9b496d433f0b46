/** Extra fields Telegram attaches to some errors. */
export interface ResponseParameters {
  /** Seconds to wait before repeating the request (flood control). */
  retry_after?: number;
  /** The supergroup a group was migrated to. */
  migrate_to_chat_id?: number;
}

/** The JSON body of a failed Bot API call. */
export interface ApiErrorBody {
  /** Always false. */
  ok: false;
  /** Telegram's error code, equal to the HTTP status. */
  error_code: number;
  /** Human-readable description, e.g. "Bad Request: chat not found". */
  description: string;
  /** Present for flood control and migrations. */
  parameters?: ResponseParameters;
}

/** A Bot API error a method handler throws; the server turns it into Telegram's JSON error answer. */
export class ApiError extends Error {
  /** HTTP status and `error_code`. */
  readonly status: number;
  /** Telegram's description. */
  readonly description: string;
  /** Extra parameters such as retry_after. */
  readonly parameters: ResponseParameters | undefined;

  constructor(params: { status: number; description: string; parameters?: ResponseParameters }) {
    super(params.description);
    this.name = 'ApiError';
    this.status = params.status;
    this.description = params.description;
    this.parameters = params.parameters;
  }

  /** The response body Telegram would send. */
  body(): ApiErrorBody {
    const body: ApiErrorBody = { ok: false, error_code: this.status, description: this.description };
    if (this.parameters) body.parameters = this.parameters;
    return body;
  }
}

/** 400 "Bad Request: <detail>". */
export function badRequest(detail: string): ApiError {
  return new ApiError({ status: 400, description: `Bad Request: ${detail}` });
}

/** 401 for a wrong bot token. */
export function unauthorized(): ApiError {
  return new ApiError({ status: 401, description: 'Unauthorized' });
}

/** 404 for an unknown method or file. */
export function notFound(): ApiError {
  return new ApiError({ status: 404, description: 'Not Found' });
}

/** 429 flood control with parameters.retry_after. */
export function tooManyRequests(params: { retryAfter: number }): ApiError {
  return new ApiError({
    status: 429,
    description: `Too Many Requests: retry after ${params.retryAfter}`,
    parameters: { retry_after: params.retryAfter },
  });
}

/** Description Telegram sends to a getUpdates request that a newer one replaced. */
export const CONFLICT_OTHER_POLLER =
  'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running';

/** Description Telegram sends to getUpdates while a webhook is set. */
export const CONFLICT_WEBHOOK_ACTIVE =
  "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first";

/** 409 with the given description. */
export function conflict(description: string): ApiError {
  return new ApiError({ status: 409, description });
}

/** Telegram's usual description for an error status, used when a test injects one without its own. */
export function defaultDescription(params: { status: number; retryAfter?: number }): string {
  switch (params.status) {
    case 400:
      return 'Bad Request';
    case 401:
      return 'Unauthorized';
    case 403:
      return 'Forbidden: bot was blocked by the user';
    case 404:
      return 'Not Found';
    case 409:
      return CONFLICT_OTHER_POLLER;
    case 429:
      return `Too Many Requests: retry after ${params.retryAfter ?? 1}`;
    case 502:
      return 'Bad Gateway';
    default:
      return params.status >= 500 ? 'Internal Server Error' : `Error ${params.status}`;
  }
}
