// A token bucket for stream-ticket minting in upstream mode. Each forwarded stream costs
// the upstream a ticket minted with the upstream credential; a page that opens streams in
// a loop (or thirty `<img>` tags) must not make the proxy mint without end (ADR 0175).
// The SPA opens one stream per open session and reconnects with backoff: far below this.

export type MintBudget = {
  /** Takes one mint; false when the bucket is empty (the caller answers 429). */
  take(): boolean;
  /** Seconds until one mint is available again. */
  retryAfterSeconds(): number;
};

const DEFAULT_MINT_BURST = 10;
const DEFAULT_MINTS_PER_SECOND = 1;

export function createMintBudget(
  options: { burst?: number; perSecond?: number; now?: () => number } = {},
): MintBudget {
  const burst = options.burst ?? DEFAULT_MINT_BURST;
  const perSecond = options.perSecond ?? DEFAULT_MINTS_PER_SECOND;
  const now = options.now ?? Date.now;
  let tokens = burst;
  let at = now();
  const refill = () => {
    const t = now();
    tokens = Math.min(burst, tokens + ((t - at) / 1000) * perSecond);
    at = t;
  };
  return {
    take() {
      refill();
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
    retryAfterSeconds() {
      refill();
      return tokens >= 1 ? 0 : Math.ceil((1 - tokens) / perSecond);
    },
  };
}
