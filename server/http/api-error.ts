// The error envelope of every non-2xx answer (docs/contract.md "Errors"). Domain and host
// code throw `ApiError`; the app's error handler turns it (or anything else, without its
// stack) into the envelope.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorCode, ErrorEnvelope } from "../../src/contract/error";

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: ErrorCode;
  readonly details: Record<string, string> | undefined;

  constructor(
    status: ContentfulStatusCode,
    code: ErrorCode,
    message: string,
    details?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

function envelopeOf(error: ApiError): ErrorEnvelope {
  return {
    error: error.message,
    code: error.code,
    ...(error.details === undefined ? {} : { details: error.details }),
  };
}

export function sendError(c: Context, error: ApiError): Response {
  return c.json(envelopeOf(error), error.status);
}

export const notFound = (what: string) => new ApiError(404, "not_found", `${what} not found`);

export const invalidRequest = (message: string, details?: Record<string, string>) =>
  new ApiError(400, "invalid_request", message, details);
