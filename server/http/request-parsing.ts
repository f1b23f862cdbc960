// Parsing at the HTTP boundary with the contract's strict schemas: bad JSON, unknown
// fields and out-of-range values all become 400 `invalid_request` with per-field details.
import type { Context } from "hono";
import { z } from "../../src/contract/zod";
import { invalidRequest } from "./api-error";

function detailsOf(error: z.core.$ZodError, root: string): Record<string, string> {
  const details: Record<string, string> = {};
  for (const issue of error.issues) {
    const keys =
      issue.code === "unrecognized_keys" ? issue.keys : [issue.path.map(String).join(".")];
    for (const key of keys) details[key === "" ? root : key] ??= issue.message;
  }
  return details;
}

/** For endpoints that take no parameters: any query parameter is an unknown one. */
export const NoQuery = z.strictObject({});

export function parseQuery<T extends z.ZodMiniType>(c: Context, schema: T): z.output<T> {
  // `?limit=1&limit=1000` has no single meaning; refuse it instead of picking one.
  const repeated = Object.entries(c.req.queries())
    .filter(([, values]) => values.length > 1)
    .map(([name]): [string, string] => [name, "given more than once"]);
  if (repeated.length > 0) {
    throw invalidRequest("invalid query parameters", Object.fromEntries(repeated));
  }
  const result = schema.safeParse(c.req.query());
  if (!result.success) {
    throw invalidRequest("invalid query parameters", detailsOf(result.error, "query"));
  }
  return result.data;
}

/** An empty body counts as `{}` so bodiless POSTs (start, stop, cancel) stay simple. */
export async function parseJsonBody<T extends z.ZodMiniType>(
  c: Context,
  schema: T,
): Promise<z.output<T>> {
  const text = await c.req.text();
  let raw: unknown = {};
  if (text.trim() !== "") {
    try {
      raw = JSON.parse(text);
    } catch {
      throw invalidRequest("request body is not valid JSON");
    }
  }
  const result = schema.safeParse(raw);
  if (!result.success) {
    throw invalidRequest("invalid request body", detailsOf(result.error, "body"));
  }
  return result.data;
}
