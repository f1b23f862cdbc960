// Accept-Encoding negotiation for the precompressed static files (RFC 9110 §12.5.3):
// q-values decide; among equal q the smaller encoding wins (br, then gzip, then identity).
export type StaticEncoding = "br" | "gzip" | "identity";

const PREFERENCE: readonly StaticEncoding[] = ["br", "gzip", "identity"];

/** Each coding's q from the header; `*` stands for every coding not named. */
function parseAcceptEncoding(header: string): { named: Map<string, number>; any?: number } {
  const named = new Map<string, number>();
  let any: number | undefined;
  for (const item of header.split(",")) {
    const [rawName, ...params] = item.split(";");
    const name = rawName?.trim().toLowerCase() ?? "";
    if (name === "") continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split("=").map((part) => part.trim());
      if (key?.toLowerCase() !== "q") continue;
      // A malformed weight makes the whole item meaningless: ignore it.
      q =
        value !== undefined && /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value)
          ? Number(value)
          : Number.NaN;
    }
    if (Number.isNaN(q)) continue;
    if (name === "*") any = q;
    else named.set(name === "x-gzip" ? "gzip" : name, q);
  }
  return any === undefined ? { named } : { named, any };
}

/**
 * The encoding to send, given the header and which variants exist. With no header, or
 * when nothing acceptable exists, identity: a response the client can always read beats a
 * 406 for a static page.
 */
export function chooseEncoding(
  header: string | undefined,
  available: ReadonlySet<StaticEncoding>,
): StaticEncoding {
  if (header === undefined || header.trim() === "") return "identity";
  const { named, any } = parseAcceptEncoding(header);
  let best: StaticEncoding = "identity";
  let bestQ = -1;
  for (const encoding of PREFERENCE) {
    if (encoding !== "identity" && !available.has(encoding)) continue;
    // identity is acceptable unless refused by name or by `*;q=0` (RFC 9110), but as an
    // implicit fallback only: any coding the client named outranks it.
    const q = named.get(encoding) ?? any ?? (encoding === "identity" ? Number.MIN_VALUE : 0);
    if (q > 0 && q > bestQ) {
      best = encoding;
      bestQ = q;
    }
  }
  return best;
}
