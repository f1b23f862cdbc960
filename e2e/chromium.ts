// Debian's Chromium, as these machines run it: Playwright cannot download its own browser
// here, and without the background-networking flags Chromium keeps dialling out.
export const CHROMIUM_PATH = process.env.TIDELINE_CHROMIUM ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
